import type { Conversation } from '../../../protocol/conversations.js';
import type { Database } from '../db/database.js';
import type { ChannelRow } from '../memberships/membership-store.js';
import type { TransmissionStore } from '../transmissions/transmission-store.js';
import { findUserById } from '../users/user-directory.js';
import type { Viewer } from '../users/user-visibility.js';

export interface ConversationViewDeps {
  db: Database;
  transmissions: Pick<TransmissionStore, 'list'>;
}

/**
 * A conversation as `viewer` sees it: the channel record, the other person's public record, and
 * the transmissions they missed (the channel's own "N missed", blocks and retention included).
 * Null when the other person is gone.
 */
export async function conversationView(
  deps: ConversationViewDeps,
  viewer: Viewer,
  row: { channel: ChannelRow; otherId: string },
): Promise<Conversation | null> {
  const other = await findUserById(deps.db, row.otherId, viewer);
  if (!other) return null;
  const { channel } = row;
  const { missed } = await deps.transmissions.list(channel.id, viewer.id);
  return {
    channel: {
      id: channel.id,
      name: channel.name,
      createdBy: channel.createdBy,
      memberCount: 2,
      talkMode: channel.talkMode,
      maxTransmissionSeconds: channel.maxTransmissionSeconds,
      keepTransmissions: channel.keepTransmissions,
      sos: channel.sos,
      sosSeconds: channel.sosSeconds,
    },
    user: other,
    missed,
  };
}
