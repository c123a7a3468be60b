import type { Redis } from 'ioredis';

/**
 * Ends a Redis connection without waiting on a Redis that is gone: QUIT only on a live connection
 * (and not for long), otherwise drop it. A QUIT queued while ioredis reconnects waits through every
 * retry — about ten seconds for a subscriber — which made a shutdown with Redis down overrun.
 */
export async function closeRedis(client: Redis, timeoutMs = 1000): Promise<void> {
  if (client.status === 'ready') {
    await Promise.race([
      client.quit().catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, timeoutMs).unref()),
    ]);
  }
  client.disconnect();
}

/** Reports a Redis error once per `intervalMs` per message: an outage is one line, not one per retry. */
export function throttledRedisErrors(report: (error: unknown, repeats: number) => void, intervalMs = 30_000) {
  const last = new Map<string, { at: number; repeats: number }>();
  return (error: unknown) => {
    const key = error instanceof Error ? error.message : String(error);
    const seen = last.get(key);
    if (seen && Date.now() - seen.at < intervalMs) {
      seen.repeats++;
      return;
    }
    last.set(key, { at: Date.now(), repeats: 0 });
    report(error, seen?.repeats ?? 0);
  };
}
