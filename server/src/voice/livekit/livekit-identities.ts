import { eq } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { livekitIdentities } from '../../db/schema.js';

/** Whose a minted LiveKit identity is: the user, the channel and the sign-in session it was minted for. */
export interface LivekitIdentityOwner {
  identity: string;
  userId: string;
  channelId: number;
  sessionId: string;
}

const ownerColumns = {
  identity: livekitIdentities.identity,
  userId: livekitIdentities.userId,
  channelId: livekitIdentities.channelId,
  sessionId: livekitIdentities.sessionId,
};

/** The token endpoint minted `identity` for this user, channel and sign-in session. */
export async function recordIdentity(db: Database, owner: LivekitIdentityOwner): Promise<void> {
  await db.insert(livekitIdentities).values(owner).onConflictDoNothing();
}

/** Who an identity was minted for; undefined when we never minted it (or its session ended). */
export async function sessionOfIdentity(
  db: Database,
  identity: string,
): Promise<LivekitIdentityOwner | undefined> {
  const [row] = await db
    .select(ownerColumns)
    .from(livekitIdentities)
    .where(eq(livekitIdentities.identity, identity))
    .limit(1);
  return row;
}

/** Every identity minted for a sign-in session (the session ended: their participants must go). */
export async function identitiesOfSession(
  db: Database,
  sessionId: string,
): Promise<LivekitIdentityOwner[]> {
  return db
    .select(ownerColumns)
    .from(livekitIdentities)
    .where(eq(livekitIdentities.sessionId, sessionId));
}
