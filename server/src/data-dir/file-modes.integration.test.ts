import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { signInBuiltIn, TestClient } from '../testing/http-client.js';
import { freePort } from '../testing/test-server.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The umask most systems give a service that does not set its own. */
const UMASK = '022';

/** An environment without the developer's or CI's own database and Redis: the embedded defaults. */
function embeddedEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...extra };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'SESSION_SECRET', 'VOICE_PROVIDER'])
    delete env[name];
  return env;
}

interface Run {
  child: ChildProcess;
  output: () => { stdout: string; stderr: string };
  exited: Promise<number | null>;
}

/** `node <args>` as an operator's shell would start it, under umask 022. */
function runUnderUmask(args: string[], env: NodeJS.ProcessEnv): Run {
  const child = spawn(
    '/bin/sh',
    ['-c', `umask ${UMASK} && exec "$0" "$@"`, process.execPath, ...args],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { child, output: () => ({ stdout, stderr }), exited };
}

/** The server exactly as `npm start` runs it (same start-up code), on the embedded database. */
async function startServer(dataDir: string, running: ChildProcess[]) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const run = runUnderUmask(
    ['--import', 'tsx', 'server/src/lifecycle/testing/api-server-process.ts'],
    embeddedEnv({ PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: baseUrl, DATA_DIR: dataDir }),
  );
  running.push(run.child);
  for (let i = 0; ; i++) {
    if (run.child.exitCode !== null)
      throw new Error(`server exited with ${run.child.exitCode}: ${run.output().stderr}`);
    if (
      await fetch(`${baseUrl}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 600) throw new Error('server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    baseUrl,
    stop: async () => {
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    },
  };
}

/** Everything at and under `path` that group or others may read, write or enter, with its mode. */
function openToOthers(path: string): string[] {
  const found: string[] = [];
  const visit = (entry: string) => {
    const stats = lstatSync(entry);
    if (!stats.isSymbolicLink() && (stats.mode & 0o077) !== 0)
      found.push(`${entry} ${(stats.mode & 0o777).toString(8)}`);
    if (stats.isDirectory()) for (const name of readdirSync(entry)) visit(join(entry, name));
  };
  visit(path);
  return found;
}

const countFiles = (path: string): number =>
  readdirSync(path, { withFileTypes: true }).reduce(
    (n, entry) => n + (entry.isDirectory() ? countFiles(join(path, entry.name)) : 1),
    0,
  );

/** An install's data folder as servers before this change left it: 0755 folders, 0666 files. */
function asOldInstallsLeftIt(path: string): void {
  const stats = lstatSync(path);
  if (stats.isSymbolicLink()) return;
  chmodSync(path, stats.isDirectory() ? 0o755 : 0o666);
  if (stats.isDirectory())
    for (const name of readdirSync(path)) asOldInstallsLeftIt(join(path, name));
}

describe('the data folder and backups are private to the server user, whatever the umask', () => {
  const running: ChildProcess[] = [];
  afterEach(() => {
    for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  it("a fresh DATA_DIR, the embedded database (WAL included) and a backup are the server user's alone", async () => {
    const parent = mkdtempSync(join(tmpdir(), 'chirp-modes-'));
    const dataDir = join(parent, 'data');
    const server = await startServer(dataDir, running);
    // A sign-in writes accounts, the provider's signing key and sessions: the write-ahead log grows.
    const client = new TestClient(server.baseUrl);
    await signInBuiltIn(client, { name: 'Mona Modes', email: 'mona@example.com' });
    expect((await client.request('/api/auth/user')).status).toBe(200);

    // While it runs (the lock file, the live WAL) and after it stopped.
    expect(countFiles(join(dataDir, 'db'))).toBeGreaterThan(100);
    expect(openToOthers(dataDir)).toEqual([]);
    await server.stop();
    expect(openToOthers(dataDir)).toEqual([]);

    // `npm run db:backup -- <file>` into a folder it creates.
    const backupFile = join(parent, 'backups', 'chirp.tar.gz');
    const backup = runUnderUmask(
      ['scripts/server-tool.mjs', 'backup/backup-cli', 'backup', backupFile],
      embeddedEnv({ DATA_DIR: dataDir }),
    );
    running.push(backup.child);
    expect(await backup.exited, backup.output().stderr).toBe(0);
    expect(backup.output().stdout).toContain(`to ${backupFile}`);
    expect(openToOthers(join(parent, 'backups'))).toEqual([]);
    expect(openToOthers(dataDir)).toEqual([]);
  }, 120_000);

  it("makes an older install's readable data folder private at start", async () => {
    const parent = mkdtempSync(join(tmpdir(), 'chirp-modes-'));
    const dataDir = join(parent, 'data');
    await (await startServer(dataDir, running)).stop();
    asOldInstallsLeftIt(dataDir);
    expect(openToOthers(dataDir).length).toBeGreaterThan(100);
    // Something of the operator's beside Chirp's files is not Chirp's to change.
    const notes = join(dataDir, 'notes.txt');
    writeFileSync(notes, 'ours, not Chirp\'s');
    chmodSync(notes, 0o644);

    const server = await startServer(dataDir, running);
    expect(openToOthers(dataDir)).toEqual([`${notes} 644`]);
    // The database it made private still works: a new account signs in.
    const client = new TestClient(server.baseUrl);
    await signInBuiltIn(client, { name: 'Olga Older', email: 'olga@example.com' });
    expect((await client.request('/api/auth/user')).status).toBe(200);
    await server.stop();
  }, 120_000);

  it.each([
    ['0777', 0o777],
    ['0775', 0o775],
    ['1777', 0o1777],
  ])(
    'refuses a data folder others can write (mode %s) with one line, changing nothing',
    async (_, mode) => {
      const dataDir = join(mkdtempSync(join(tmpdir(), 'chirp-modes-')), 'data');
      mkdirSync(dataDir);
      chmodSync(dataDir, mode);
      writeFileSync(join(dataDir, 'session-secret'), 'x'.repeat(48));
      chmodSync(join(dataDir, 'session-secret'), 0o644);

      const port = await freePort();
      const run = runUnderUmask(
        ['--import', 'tsx', 'server/src/lifecycle/testing/api-server-process.ts'],
        embeddedEnv({
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          DATA_DIR: dataDir,
        }),
      );
      running.push(run.child);
      expect(await run.exited).toBe(1);
      const lines = run
        .output()
        .stderr.split('\n')
        .filter((line) => line.trim() !== '');
      expect(lines).toEqual([
        expect.stringContaining(`DATA_DIR ${dataDir} can be changed by other accounts`),
      ]);
      expect(lines[0]).toContain(`chmod -R go-rwx ${dataDir}`);
      // Nothing was changed, and no database was made in a folder others could have prepared.
      expect(lstatSync(dataDir).mode & 0o7777).toBe(mode);
      expect(lstatSync(join(dataDir, 'session-secret')).mode & 0o777).toBe(0o644);
      expect(readdirSync(dataDir)).toEqual(['session-secret']);
    },
    60_000,
  );
});
