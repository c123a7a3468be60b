import { eq } from 'drizzle-orm';
import { CONVERSATION_REFUSALS } from '../../../protocol/conversations.js';
import { hasBlocked } from '../blocking/block-store.js';
import type { Database } from '../db/database.js';
import { users } from '../db/schema.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import type { ChannelRow } from '../memberships/membership-store.js';
import { getOrCreateConversation } from './conversation-store.js';

/**
 * Who may open a direct conversation with whom (decision 039): the rule one-to-one calls follow —
 * any signed-in person with any other existing person, whatever their tiers or shared channels —
 * and, stricter than a call, never while either has blocked the other. Checked in the transaction
 * that makes (or finds) the conversation, so a block made meanwhile is not raced past.
 */
export async function startConversation(
  db: Database,
  starterId: string,
  otherId: string,
): Promise<ChannelRow> {
  if (otherId === starterId) throw badRequest(CONVERSATION_REFUSALS.self);
  return db.transaction(async (tx) => {
    const [other] = await tx.select({ id: users.id }).from(users).where(eq(users.id, otherId));
    if (!other) throw notFound(CONVERSATION_REFUSALS.unknown);
    if (await hasBlocked(tx, starterId, otherId)) throw forbidden(CONVERSATION_REFUSALS.youBlocked);
    if (await hasBlocked(tx, otherId, starterId)) throw forbidden(CONVERSATION_REFUSALS.unavailable);
    return (await getOrCreateConversation(tx, starterId, otherId)).channel;
  });
}
