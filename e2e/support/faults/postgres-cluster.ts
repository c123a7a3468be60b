import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../turn/chirp-process';

/** Debian's PostgreSQL 15 (installed by scripts/services.sh), run as a throwaway cluster. */
const BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PostgresCluster {
  url: string;
  /** Stops the server (fast shutdown: connections are cut, as a crash or failover cuts them). */
  stop(): void;
  start(): void;
  /** Stops it and deletes its files. */
  destroy(): void;
}

/** PostgreSQL refuses to run as root: as root, run its tools as the `postgres` user. */
function run(tool: string, args: string[]): void {
  const command = join(BIN, tool);
  const asRoot = process.getuid?.() === 0;
  const result = asRoot
    ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
    : spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`${tool} ${args.join(' ')}: ${result.stderr || result.stdout}`);
}

/**
 * A PostgreSQL cluster of our own on a free port, so a test may stop it without touching the shared
 * one on 5432. Trust authentication on 127.0.0.1 only; a `chirp` database owned by `chirp`.
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'chirp-faults-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
  run('initdb', ['-D', data, '-U', 'chirp', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () =>
    run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  start();
  run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'chirp', 'chirp']);
  return {
    url: `postgres://chirp@127.0.0.1:${port}/chirp`,
    stop,
    start,
    destroy: () => {
      try {
        stop();
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
