import { Redis } from 'ioredis';
import { StartRefusal } from '../start-refusal.js';

/** How long a starting server waits for Redis (it may be starting beside it) before giving up. */
const WAIT_FOR_REDIS_MS = 3_000;
const RETRY_EVERY_MS = 500;

/** Where REDIS_URL points, for messages: host and port only (never the password). */
export function redisAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '6379'}`;
}

/** One connection attempt and a PING, with no reconnects and no queued commands. */
async function ping(url: string, timeoutMs: number): Promise<void> {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: timeoutMs,
    retryStrategy: () => null,
  });
  // connect() rejects with "Connection is closed."; the socket's own error says why.
  let cause: Error | undefined;
  client.on('error', (error: Error) => (cause ??= error));
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw cause ?? error;
  } finally {
    client.disconnect();
  }
}

/**
 * Waits (briefly) until Redis answers, or refuses to start with one line naming Redis and its
 * address. The server's connections reconnect forever once it runs — `/readyz` answers 503 while
 * Redis is away — but a start without Redis would hang in ioredis' retries and die with a stack
 * (decision 025).
 */
export async function requireRedis(url: string, waitMs = WAIT_FOR_REDIS_MS, now = Date.now): Promise<void> {
  const deadline = now() + waitMs;
  let cause: string;
  for (;;) {
    const left = deadline - now();
    try {
      await ping(url, Math.max(500, Math.min(2_000, left)));
      return;
    } catch (error) {
      const { code, message } = error as NodeJS.ErrnoException;
      // Something else listens there (an HTTP server answers "H..."): ioredis' parser gives up.
      const said = /^Unknown RESP type|^Protocol error/.test(message) ? 'the answer is not Redis' : (code ?? message);
      // A reply such as WRONGPASS names no secret; newlines would break the one line.
      cause = said.replace(/\s+/g, ' ').slice(0, 120);
    }
    if (deadline - now() <= RETRY_EVERY_MS) break;
    await new Promise((resolve) => setTimeout(resolve, RETRY_EVERY_MS));
  }
  throw new StartRefusal(
    `Refusing to start: Redis at ${redisAddress(url)} (REDIS_URL) does not answer (${cause}). Start Redis or fix REDIS_URL.`,
  );
}
