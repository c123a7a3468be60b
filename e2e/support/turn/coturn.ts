import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Coturn {
  port: number;
  secret: string;
  /** Everything coturn logged so far (allocations name the TURN username). */
  log(): string;
  stop(): Promise<void>;
}

const tcpPortFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

const udpPortFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => resolve(false));
    socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
  });

/** A listening port and a block of relay ports that are free now, away from other helpers' fixed ports. */
async function freePorts(relayCount: number): Promise<{ port: number; relayMin: number; relayMax: number }> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 40_000 + Math.floor(Math.random() * 20_000);
    const port = base;
    if (!(await tcpPortFree(port)) || !(await udpPortFree(port))) continue;
    let free = true;
    for (let p = base + 1; p <= base + relayCount && free; p++) free = await udpPortFree(p);
    if (free) return { port, relayMin: base + 1, relayMax: base + relayCount };
  }
  throw new Error('no free ports for coturn');
}

/**
 * The address coturn relays from: the machine's own network address, where the built-in SFU's
 * host candidates are. The SFU's sockets are bound to every interface, so what it sends to a relay
 * on 127.0.0.1 leaves with source 127.0.0.1 — not the candidate address the browser opened a TURN
 * permission for — and coturn drops it. Relaying from the interface address keeps them equal, as
 * on a real server (where coturn's relay and the SFU share the public address).
 */
function relayAddress(): string {
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) if (entry.family === 'IPv4' && !entry.internal) return entry.address;
  }
  return '127.0.0.1';
}

/**
 * Debian's coturn listening on loopback, as an operator would run it for Chirp (`use-auth-secret` with a
 * static secret: the TURN REST API), plus what only a test on one machine needs: relaying to
 * loopback peers, since the browsers, the SFU and coturn all live on 127.0.0.1 here.
 */
export async function startCoturn(): Promise<Coturn> {
  const dir = mkdtempSync(join(tmpdir(), 'chirp-coturn-'));
  const { port, relayMin, relayMax } = await freePorts(40);
  const secret = `turn-secret-${Math.random().toString(36).slice(2)}`;
  const logFile = join(dir, 'turn.log');
  writeFileSync(
    join(dir, 'turnserver.conf'),
    [
      'listening-ip=127.0.0.1',
      `listening-port=${port}`,
      `relay-ip=${relayAddress()}`,
      `min-port=${relayMin}`,
      `max-port=${relayMax}`,
      'use-auth-secret',
      `static-auth-secret=${secret}`,
      'realm=chirp.test',
      // Test only: browsers, SFU and coturn share this machine (and may only have loopback).
      // deploy/coturn/turnserver.conf denies loopback and private peers.
      'allow-loopback-peers',
      'no-tls',
      'no-dtls',
      'no-cli',
      'fingerprint',
      `userdb=${join(dir, 'turndb')}`,
      `pidfile=${join(dir, 'turnserver.pid')}`,
      `log-file=${logFile}`,
      'simple-log',
      'verbose',
    ].join('\n'),
  );
  const binary = process.env.TEST_TURNSERVER_BINARY ?? 'turnserver';
  const child: ChildProcess = spawn(binary, ['-c', join(dir, 'turnserver.conf')], { stdio: 'ignore' });
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  const log = () => {
    try {
      return readFileSync(logFile, 'utf8');
    } catch {
      return '';
    }
  };
  const started = Date.now();
  let failed: Error | undefined;
  void spawnError.then((error) => (failed = error));
  while (!log().includes('Total General servers')) {
    if (failed) throw new Error(`coturn could not start (${failed.message}): install it with scripts/services.sh coturn`);
    if (child.exitCode !== null) throw new Error(`coturn exited (${child.exitCode}): ${log()}`);
    if (Date.now() - started > 15_000) {
      child.kill();
      throw new Error(`coturn did not start: ${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    secret,
    log,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
