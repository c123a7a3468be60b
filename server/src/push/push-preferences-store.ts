import { eq, sql } from 'drizzle-orm';
import type { PushPreferences } from '../../../protocol/push.js';
import type { Queryable } from '../db/database.js';
import { pushPreferences } from '../db/schema.js';

/** Everything on: what a person who never changed a switch gets. */
export const ALL_PUSHES_ON: PushPreferences = Object.freeze({
  calls: true,
  pokes: true,
  transmissions: true,
  channelAdds: true,
});

/** Which kinds of event notify this person; a missing row means all of them. */
export async function pushPreferencesOf(db: Queryable, userId: string): Promise<PushPreferences> {
  const [row] = await db.select().from(pushPreferences).where(eq(pushPreferences.userId, userId)).limit(1);
  if (!row) return { ...ALL_PUSHES_ON };
  return { calls: row.calls, pokes: row.pokes, transmissions: row.transmissions, channelAdds: row.channelAdds };
}

export async function savePushPreferences(db: Queryable, userId: string, preferences: PushPreferences): Promise<void> {
  await db
    .insert(pushPreferences)
    .values({ userId, ...preferences })
    .onConflictDoUpdate({ target: pushPreferences.userId, set: { ...preferences, updatedAt: sql`now()` } });
}
