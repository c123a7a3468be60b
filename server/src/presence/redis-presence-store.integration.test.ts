import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RedisPresenceStore } from './redis-presence-store.js';

const redisUrl = process.env.TEST_REDIS_URL;

/** Another instance in its own process, holding one user, that the test can kill like a crash. */
function otherInstance(namespace: string): Promise<{ kill: () => void }> {
  const script = `
    import { RedisPresenceStore } from './server/src/presence/redis-presence-store.ts';
    const store = new RedisPresenceStore(process.env.URL, process.env.NS, () => undefined);
    await store.put('user-on-other', { channels: { '7': { talking: true } } });
    setTimeout(() => console.log('ready'), 300);
    setInterval(() => undefined, 1000);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, URL: redisUrl, NS: namespace },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the other instance exited with ${code}`)));
    child.stdout.on('data', (data: Buffer) => {
      if (data.toString().includes('ready')) resolve({ kill: () => child.kill('SIGKILL') });
    });
  });
}

/** Crash detection across processes on a real Redis (TEST_REDIS_URL; CI sets it). */
describe.runIf(redisUrl)('Redis presence: crashed and revived instances', () => {
  it('finds a killed instance within seconds, long before its heartbeat expires', async () => {
    const ns = `chirp-test-${randomBytes(4).toString('hex')}:`;
    const survivor = new RedisPresenceStore(redisUrl!, ns, () => undefined);
    const other = await otherInstance(ns);
    try {
      expect((await survivor.read(['user-on-other'])).get('user-on-other')).toHaveLength(1);
      // Alive: its lifeline is held, so however often we look, it is not reaped.
      for (let i = 0; i < 3; i++) {
        expect(await survivor.reapDeadInstances()).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, 600));
      }
      other.kill();
      // A polling wait whose generous deadline (10 s) is still well inside the 30 s heartbeat
      // expiry: only the lifeline, closed with the process, can have told the survivor.
      const deadline = Date.now() + 10_000;
      let reaped: string[] = [];
      while (reaped.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        reaped = await survivor.reapDeadInstances();
      }
      expect(reaped).toEqual(['user-on-other']);
      expect((await survivor.read(['user-on-other'])).size).toBe(0);
    } finally {
      other.kill();
      await survivor.close();
    }
  });

  it('an instance reaped while alive notices on its next beat and is told to write its users back', async () => {
    const ns = `chirp-test-${randomBytes(4).toString('hex')}:`;
    const store = new RedisPresenceStore(redisUrl!, ns, () => undefined, 30_000, 200);
    const redis = new Redis(redisUrl!);
    try {
      let restored = 0;
      store.onRestored(() => restored++);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(restored).toBe(0);
      // What a survivor does to an instance it takes for dead.
      await redis.zrem(`${ns}instances`, store.instanceId);
      await redis.del(`${ns}presence:${store.instanceId}`);
      await expect.poll(() => restored, { timeout: 2_000 }).toBe(1);
    } finally {
      await store.close();
      await redis.quit();
    }
  });
});
