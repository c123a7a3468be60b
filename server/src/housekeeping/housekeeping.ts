import { lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { purgeExpiredPayloads } from '../auth/provider/oidc-adapter.js';
import { deleteExpiredSessions } from '../auth/session-store.js';
import type { Database } from '../db/database.js';
import { rateLimits } from '../db/schema.js';
import { deleteExpiredInvites } from '../invites/invite-store.js';
import { deleteOldDeliveries } from '../push/push-deliveries.js';

/** Also the retention window's precision: a transmission outlives it by at most this much. */
export const HOUSEKEEPING_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Deletes what has expired: the built-in provider's codes, interactions and sessions, app sessions,
 * shared rate-limit counters, invite links and old push delivery claims. Idempotent, so every instance may run it.
 */
export async function runHousekeeping(
  db: Database,
  now = new Date(),
): Promise<{ expiredSessions: { sessionId: string; userId: string }[] }> {
  await purgeExpiredPayloads(db, now);
  const expiredSessions = await deleteExpiredSessions(db, now);
  await db.delete(rateLimits).where(lt(rateLimits.expire, now));
  await deleteExpiredInvites(db, now);
  await deleteOldDeliveries(db, now);
  return { expiredSessions };
}

/**
 * Runs housekeeping at start and then every ten minutes, so tables that unauthenticated requests
 * can grow (provider interactions, counters) shrink again without a restart.
 */
export function registerHousekeeping(app: FastifyInstance, intervalMs = HOUSEKEEPING_INTERVAL_MS): void {
  const run = async () => {
    try {
      const { expiredSessions } = await runHousekeeping(app.ctx.database.db);
      // Expired sessions end like any other, on every instance: also voice no socket watched.
      for (const { sessionId, userId } of expiredSessions)
        await app.ctx.sockets.endSession(sessionId, userId);
      // Walkie-talkie transmissions past the retention window.
      for (const channelId of await app.ctx.transmissions.deleteExpired())
        app.ctx.channelEvents.publish({ type: 'transmissions_changed', channelId });
    } catch (error) {
      app.log.error({ err: error }, 'housekeeping failed');
    }
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    await run();
    timer = setInterval(() => void run(), intervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
