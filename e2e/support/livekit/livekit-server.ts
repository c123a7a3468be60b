import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/**
 * A LiveKit server of the test's own (the binary `scripts/services.sh` installs), with the
 * configuration the test needs: its own ports, keys, webhooks pointing at the test's Chirp server,
 * a Redis for a two-node cluster. The shared dev instance on 7880 is never touched.
 */
export interface LivekitOptions {
  /** Signalling and RoomService (HTTP/WebSocket). */
  port: number;
  /** ICE over TCP. */
  tcpPort: number;
  /** All ICE over UDP through this one port. */
  udpPort: number;
  apiKey: string;
  apiSecret: string;
  webhookUrls?: string[];
  /** Several nodes on one Redis form a cluster: a room lives on one node, clients may use any. */
  redis?: { address: string; db: number };
  /** Seconds a room stays after its last participant left (LiveKit's default is 20). */
  departureTimeout?: number;
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /** ICE-lite: the node only answers checks, so a browser routed through a relay has no other path. */
  iceLite?: boolean;
  /**
   * The address LiveKit advertises in its candidates (127.0.0.1 by default). LiveKit binds its UDP
   * port on the machine's interfaces but not on loopback, so 127.0.0.1 reaches it only because the
   * browser tries its other candidates too; a relay that must forward to it needs the real address.
   */
  nodeIp?: string;
}

export function livekitYaml(options: LivekitOptions): string {
  const lines = [
    `port: ${options.port}`,
    'bind_addresses: ["127.0.0.1"]',
    'rtc:',
    `  tcp_port: ${options.tcpPort}`,
    `  udp_port: ${options.udpPort}`,
    '  use_external_ip: false',
    `  node_ip: ${options.nodeIp ?? '127.0.0.1'}`,
    ...(options.iceLite ? ['  use_ice_lite: true'] : []),
    'keys:',
    `  ${options.apiKey}: ${options.apiSecret}`,
    'room:',
    // As shipped (deploy/livekit/livekit.yaml): rooms are created by Chirp, never by a join.
    '  auto_create: false',
    `  departure_timeout: ${options.departureTimeout ?? 20}`,
    '  empty_timeout: 60',
    'logging:',
    `  level: ${options.logLevel ?? 'warn'}`,
  ];
  if (options.webhookUrls?.length) {
    lines.push('webhook:', `  api_key: ${options.apiKey}`, '  urls:');
    for (const url of options.webhookUrls) lines.push(`    - ${url}`);
  }
  if (options.redis)
    lines.push('redis:', `  address: ${options.redis.address}`, `  db: ${options.redis.db}`);
  return `${lines.join('\n')}\n`;
}

export function livekitKeys(): { apiKey: string; apiSecret: string } {
  return {
    apiKey: `API${randomBytes(6).toString('hex')}`,
    apiSecret: randomBytes(24).toString('base64url'),
  };
}

export async function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}

/** Free ports for one node: signalling, ICE/TCP, ICE/UDP. */
export async function livekitPorts(): Promise<
  Pick<LivekitOptions, 'port' | 'tcpPort' | 'udpPort'>
> {
  return { port: await freeTcpPort(), tcpPort: await freeTcpPort(), udpPort: await freeUdpPort() };
}

/** Writes the node's configuration into `dir` and returns the command line that runs it. */
export function livekitCommand(binary: string, options: LivekitOptions, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `livekit-${options.port}.yaml`);
  writeFileSync(file, livekitYaml(options));
  return [binary, '--config', file];
}

export interface RunningLivekit {
  url: string;
  pid: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

async function waitForHttp(url: string, timeoutMs: number, process: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (process.exitCode !== null) throw new Error(`LiveKit exited with ${process.exitCode}`);
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`LiveKit did not answer on ${url} within ${timeoutMs} ms`);
}

/** Starts one node and waits until it answers; `stop()` kills exactly that process. */
export async function startLivekit(
  binary: string,
  options: LivekitOptions,
  dir: string,
): Promise<RunningLivekit> {
  const [command, ...args] = livekitCommand(binary, options, dir);
  const log = openSync(join(dir, `livekit-${options.port}.log`), 'a');
  const child = spawn(command!, args, { stdio: ['ignore', log, log] });
  const url = `ws://127.0.0.1:${options.port}`;
  await waitForHttp(`http://127.0.0.1:${options.port}/`, 30_000, child);
  return {
    url,
    pid: child.pid!,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
