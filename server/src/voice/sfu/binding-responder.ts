import { timingSafeEqual } from 'node:crypto';
import { isIPv4 } from 'node:net';
import { crc32 } from 'node:zlib';
import { HmacSha1 } from './srtp/hmac-sha1.js';

const HEADER_BYTES = 20;
const MAGIC_COOKIE = 0x2112a442;
const BINDING_REQUEST = 0x0001;
const BINDING_SUCCESS = 0x0101;
const USERNAME = 0x0006;
const MESSAGE_INTEGRITY = 0x0008;
const XOR_MAPPED_ADDRESS = 0x0020;
const FINGERPRINT = 0x8028;
const ICE_CONTROLLED = 0x8029;
const ICE_CONTROLLING = 0x802a;
const FINGERPRINT_XOR = 0x5354554e;
const INTEGRITY_ATTRIBUTE_BYTES = 24;
const FINGERPRINT_ATTRIBUTE_BYTES = 8;
/** The largest request looked at; browsers' consent checks are about 100 bytes. */
const MAX_REQUEST_BYTES = 548;

/** The ICE agent's state the responder reads: werift's `Connection` has these fields. */
export interface BindingAgent {
  localUsername: string;
  localPassword: string;
  remoteUsername: string;
  iceControlling: boolean;
}

/**
 * Answers the browser's routine STUN binding requests (RFC 7675 consent checks, one every few
 * seconds per connection) without werift. werift parses every request into objects, creates an
 * HMAC context per message and resolves the address before sending, which made consent answers
 * most of an idle server's CPU. Here a request is checked in place and the answer is written into
 * one buffer: XOR-MAPPED-ADDRESS, MESSAGE-INTEGRITY with the key's pads computed once, FINGERPRINT.
 *
 * Only the plain case is taken: an IPv4 binding request on the nominated pair (the caller checks
 * the pair), for the agent's current credentials, whose MESSAGE-INTEGRITY verifies, claiming the
 * role opposite the agent's. A USE-CANDIDATE there (a controlling browser repeats it on every
 * check) only names the pair that is already nominated, which werift would also leave as is.
 * Everything else (checks on other pairs, role conflicts, old credentials after an ICE restart,
 * IPv6, malformed or unverifiable messages) is left to werift, which behaves as before.
 */
export class BindingResponder {
  private hmac: HmacSha1 | undefined;
  private hmacPassword: string | undefined;
  private username: Buffer | undefined;
  private usernameText: string | undefined;
  private readonly check = Buffer.alloc(MAX_REQUEST_BYTES);
  private readonly mac = Buffer.alloc(20);

  constructor(private readonly agent: BindingAgent) {}

  /** The success response to `request` from `host:port`, or undefined to leave it to werift. */
  answer(request: Buffer, host: string, port: number): Buffer | undefined {
    // IPv6 answers stay with werift; checked first so their integrity is not verified for nothing.
    if (!isIPv4(host)) return undefined;
    const length = request.length;
    if (length < HEADER_BYTES || length > MAX_REQUEST_BYTES || (length & 3) !== 0) return undefined;
    if (request.readUInt16BE(0) !== BINDING_REQUEST) return undefined;
    if (request.readUInt32BE(4) !== MAGIC_COOKIE) return undefined;
    if (request.readUInt16BE(2) !== length - HEADER_BYTES) return undefined;
    const agent = this.agent;

    let usernameAt = -1;
    let usernameBytes = 0;
    let integrityAt = -1;
    let controlled = false;
    let controlling = false;
    for (let at = HEADER_BYTES; at < length;) {
      if (at + 4 > length) return undefined;
      const type = request.readUInt16BE(at);
      const bytes = request.readUInt16BE(at + 2);
      const next = at + 4 + ((bytes + 3) & ~3);
      if (next > length) return undefined;
      if (integrityAt >= 0) {
        // Only FINGERPRINT may follow MESSAGE-INTEGRITY, and it ends the message.
        if (type !== FINGERPRINT || bytes !== 4 || next !== length) return undefined;
      } else if (type === USERNAME) {
        usernameAt = at + 4;
        usernameBytes = bytes;
      } else if (type === MESSAGE_INTEGRITY) {
        if (bytes !== 20) return undefined;
        integrityAt = at;
      } else if (type === ICE_CONTROLLED) {
        controlled = true;
      } else if (type === ICE_CONTROLLING) {
        controlling = true;
      } else if (type === FINGERPRINT) {
        return undefined;
      }
      at = next;
    }
    if (usernameAt < 0 || integrityAt < 0) return undefined;
    // The sender must claim the other role; a claim to ours is a role conflict for werift to settle.
    if (agent.iceControlling ? !controlled || controlling : !controlling || controlled)
      return undefined;

    const expected = this.expectedUsername(agent);
    if (
      usernameBytes !== expected.length ||
      expected.compare(request, usernameAt, usernameAt + usernameBytes) !== 0
    )
      return undefined;
    const hmac = this.hmacFor(agent.localPassword);
    if (!hmac) return undefined;

    // The MAC covers the message up to MESSAGE-INTEGRITY, with a length that ends after it.
    request.copy(this.check, 0, 0, integrityAt);
    this.check.writeUInt16BE(integrityAt - HEADER_BYTES + INTEGRITY_ATTRIBUTE_BYTES, 2);
    hmac.digest(this.check, integrityAt, this.mac, 0);
    if (!timingSafeEqual(this.mac, request.subarray(integrityAt + 4, integrityAt + 24)))
      return undefined;

    return this.response(request, host, port, hmac);
  }

  private response(request: Buffer, host: string, port: number, hmac: HmacSha1): Buffer {
    const addressBytes = 4;
    const mappedBytes = 4 + 4 + addressBytes;
    const integrityAt = HEADER_BYTES + mappedBytes;
    const fingerprintAt = integrityAt + INTEGRITY_ATTRIBUTE_BYTES;
    const out = Buffer.allocUnsafe(fingerprintAt + FINGERPRINT_ATTRIBUTE_BYTES);

    out.writeUInt16BE(BINDING_SUCCESS, 0);
    out.writeUInt16BE(mappedBytes + INTEGRITY_ATTRIBUTE_BYTES, 2);
    request.copy(out, 4, 4, HEADER_BYTES); // magic cookie and transaction id

    out.writeUInt16BE(XOR_MAPPED_ADDRESS, HEADER_BYTES);
    out.writeUInt16BE(4 + addressBytes, HEADER_BYTES + 2);
    out[HEADER_BYTES + 4] = 0;
    out[HEADER_BYTES + 5] = 1; // IPv4
    out.writeUInt16BE(port ^ (MAGIC_COOKIE >>> 16), HEADER_BYTES + 6);
    const octets = host.split('.');
    for (let i = 0; i < addressBytes; i++)
      out[HEADER_BYTES + 8 + i] = Number(octets[i]) ^ out[4 + i]!; // XORed with the magic cookie

    out.writeUInt16BE(MESSAGE_INTEGRITY, integrityAt);
    out.writeUInt16BE(20, integrityAt + 2);
    hmac.digest(out, integrityAt, out, integrityAt + 4);

    out.writeUInt16BE(mappedBytes + INTEGRITY_ATTRIBUTE_BYTES + FINGERPRINT_ATTRIBUTE_BYTES, 2);
    out.writeUInt16BE(FINGERPRINT, fingerprintAt);
    out.writeUInt16BE(4, fingerprintAt + 2);
    out.writeUInt32BE(
      (crc32(out.subarray(0, fingerprintAt)) ^ FINGERPRINT_XOR) >>> 0,
      fingerprintAt + 4,
    );
    return out;
  }

  private expectedUsername(agent: BindingAgent): Buffer {
    const text = `${agent.localUsername}:${agent.remoteUsername}`;
    if (text !== this.usernameText || !this.username) {
      this.usernameText = text;
      this.username = Buffer.from(text, 'utf8');
    }
    return this.username;
  }

  /** The MAC keyed with the agent's password (kept until an ICE restart changes it). */
  private hmacFor(password: string): HmacSha1 | undefined {
    if (password !== this.hmacPassword) {
      this.hmacPassword = password;
      const key = Buffer.from(password, 'utf8');
      // ICE passwords may be up to 256 characters; keys over a block stay with werift.
      this.hmac = key.length <= 64 ? new HmacSha1(key) : undefined;
    }
    return this.hmac;
  }
}
