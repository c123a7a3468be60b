import { execFileSync } from 'node:child_process';
import { createECDH, createDecipheriv, createHmac, randomBytes, type ECDH } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { Agent, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A stand-in for a Web Push service (RFC 8030), which the project's rules allow to be stood in for:
 * an HTTPS server in the test's process that takes a push message as FCM or Mozilla's autopush
 * would and answers 201, or 404/410 for a subscription the test says is gone. Its certificate is
 * self-signed (openssl); `agent` trusts it. Nothing of Chirp's own is replaced.
 */
export class LocalPushService {
  readonly received: ReceivedPush[] = [];
  /** Per endpoint path, the status to answer (default 201 Created). */
  readonly answers = new Map<string, number>();
  readonly agent: Agent;
  private readonly server: Server;
  private readonly listeners = new Set<(push: ReceivedPush) => void>();
  private origin = '';

  private constructor(cert: Buffer, key: Buffer) {
    this.agent = new Agent({ ca: cert });
    this.server = createServer({ cert, key }, (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        const push = { path, headers: request.headers, body: Buffer.concat(chunks) };
        this.received.push(push);
        for (const listener of this.listeners) listener(push);
        response.statusCode = this.answers.get(path) ?? 201;
        response.end();
      });
    });
  }

  /**
   * Starts on a free port with a new certificate, or with `certificate` (made earlier by
   * `makePushServiceCertificate`, for a server process started before the test that trusts it
   * through NODE_EXTRA_CA_CERTS).
   */
  static async start(certificate: PushServiceCertificate = makePushServiceCertificate()): Promise<LocalPushService> {
    const service = new LocalPushService(readFileSync(certificate.certFile), readFileSync(certificate.keyFile));
    await new Promise<void>((resolve) => service.server.listen(0, '127.0.0.1', resolve));
    service.origin = `https://localhost:${(service.server.address() as AddressInfo).port}`;
    return service;
  }

  /** Calls `listener` with each push as it arrives; returns the function that stops it. */
  onPush(listener: (push: ReceivedPush) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A new device's endpoint at this service. */
  endpoint(): string {
    return `${this.origin}/push/${randomBytes(12).toString('hex')}`;
  }

  get url(): string {
    return this.origin;
  }

  async close(): Promise<void> {
    this.agent.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A self-signed certificate for localhost and 127.0.0.1, as PEM files. */
export interface PushServiceCertificate {
  certFile: string;
  keyFile: string;
}

export function makePushServiceCertificate(dir = mkdtempSync(join(tmpdir(), 'chirp-push-service-'))): PushServiceCertificate {
  const certificate = { certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem') };
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', certificate.keyFile, '-out', certificate.certFile, '-days', '1',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
  ], { stdio: 'ignore' });
  return certificate;
}

export interface ReceivedPush {
  path: string;
  headers: NodeJS.Dict<string | string[]>;
  body: Buffer;
}

/** A browser's side of a subscription: its P-256 key pair and auth secret (RFC 8291 §2). */
export class DeviceKeys {
  private readonly ecdh: ECDH = createECDH('prime256v1');
  readonly auth = randomBytes(16);
  readonly publicKey: Buffer;

  constructor() {
    this.publicKey = this.ecdh.generateKeys();
  }

  /** What `PushSubscription.toJSON()` gives for this device at `endpoint`. */
  subscription(endpoint: string) {
    return { endpoint, keys: { p256dh: this.publicKey.toString('base64url'), auth: this.auth.toString('base64url') } };
  }

  /** Decrypts an `aes128gcm` push message body (RFC 8188 framing, RFC 8291 keys) as the browser would. */
  decrypt(body: Buffer): string {
    const salt = body.subarray(0, 16);
    const recordSize = body.readUInt32BE(16);
    const idLength = body[20]!;
    const serverPublicKey = body.subarray(21, 21 + idLength);
    const record = body.subarray(21 + idLength);
    if (record.length > recordSize) throw new Error('push message: more than one record');
    const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();
    const sharedSecret = this.ecdh.computeSecret(serverPublicKey);
    const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), this.publicKey, serverPublicKey, Buffer.from([1])]);
    const ikm = hmac(hmac(this.auth, sharedSecret), keyInfo);
    const prk = hmac(salt, ikm);
    const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
    const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    if (padded[end] !== 2) throw new Error('push message: last record lacks its 0x02 delimiter');
    return padded.subarray(0, end).toString('utf8');
  }
}
