import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';

/** Ping every interval; a socket that missed the previous pong is dead (found within 2 intervals). */
export const PING_INTERVAL_MS = 10_000;

/**
 * Ping/pong liveness for a socket route: add a socket as `true`, set it `true` again on every pong,
 * delete it on close. A socket that missed the previous pong is terminated.
 */
export function watchLiveness(app: FastifyInstance): Map<WebSocket, boolean> {
  const alive = new Map<WebSocket, boolean>();
  const sweep = setInterval(() => {
    for (const [ws, answered] of alive) {
      if (!answered) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, PING_INTERVAL_MS);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
  return alive;
}
