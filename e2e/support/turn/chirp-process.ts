import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ChirpProcess {
  baseURL: string;
  dataDir: string;
  /** SIGTERM, and wait for the process to exit. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash or an OOM kill ends it: no goodbye to sockets, no shutdown hooks. */
  kill(): Promise<void>;
  /** Starts the server again on the same port and data. */
  restart(): Promise<void>;
  /** `npm run admin -- <argv>` on this server's data (the server must be stopped: embedded database). */
  admin(...argv: string[]): string;
}

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/**
 * A Chirp server of its own, from the built tree (`npm run serve`'s command), on the embedded
 * defaults plus `env` — for tests that need settings the shared e2e server does not have.
 */
export async function startChirp(
  env: Record<string, string>,
  /** Another address than localhost to listen on and be reached at (a test's own network). */
  host?: string,
): Promise<ChirpProcess> {
  const port = await freePort();
  const baseURL = `http://${host ?? 'localhost'}:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'chirp-e2e-own-'));
  const fullEnv = {
    ...process.env,
    PORT: String(port),
    // The server calls its built-in provider over 127.0.0.1, so another address comes on top.
    HOST: host ? '0.0.0.0' : '127.0.0.1',
    PUBLIC_URL: baseURL,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    REDIS_URL: '',
    OIDC_ISSUER_URL: '',
    ...env,
  };
  let child: ChildProcess | undefined;

  const start = async () => {
    child = spawn(process.execPath, ['dist/server/server/src/main.js'], {
      env: fullEnv,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const started = Date.now();
    for (;;) {
      if (child.exitCode !== null) throw new Error(`chirp exited with ${child.exitCode}`);
      const ready = await fetch(`${baseURL}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) return;
      if (Date.now() - started > 90_000) throw new Error('chirp did not become ready');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const end = async (signal: NodeJS.Signals) => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill(signal);
    await exited;
  };
  const stop = () => end('SIGTERM');
  await start();
  return {
    baseURL,
    dataDir,
    stop,
    kill: () => end('SIGKILL'),
    restart: start,
    admin: (...argv) => {
      const result = spawnSync('npm', ['run', '--silent', 'admin', '--', ...argv], {
        env: fullEnv,
        encoding: 'utf8',
      });
      if (result.status !== 0) throw new Error(`npm run admin ${argv.join(' ')}: ${result.stderr}`);
      return result.stdout;
    },
  };
}
