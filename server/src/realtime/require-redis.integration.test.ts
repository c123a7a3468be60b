import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from '../testing/test-server.js';
import { requireRedis } from './require-redis.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const liveRedis = process.env.TEST_REDIS_URL;

describe('starting while Redis does not answer', () => {
  it('refuses at once with one line naming Redis and its host:port, never the password', async () => {
    // A port nobody listens on: connections are refused.
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/lifecycle/testing/api-server-process.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(await freePort()),
        HOST: '127.0.0.1',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'chirp-no-redis-')),
        DATABASE_URL: '',
        REDIS_URL: `redis://:hunter2-redis-password@127.0.0.1:${port}/0`,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Before: ioredis retried for about 85 s, then the process died with a stack trace.
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error('the server neither started nor refused within 30 s'));
      }, 30_000);
      child.once('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    expect(code).toBe(1);
    const lines = stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toEqual([
      `Refusing to start: Redis at 127.0.0.1:${port} (REDIS_URL) does not answer (ECONNREFUSED). Start Redis or fix REDIS_URL.`,
    ]);
    expect(stdout + stderr).not.toContain('hunter2');
    // Nothing was opened: no database was made for a server that is not going to run.
    expect(stdout).not.toContain('Chirp is ready');
  }, 60_000);

  it.runIf(liveRedis)('passes at once when Redis answers', async () => {
    await expect(requireRedis(liveRedis!)).resolves.toBeUndefined();
  });
});
