import type { Database } from '../db/database.js';
import type { ChannelEvent, ChannelEvents } from '../realtime/channel-events.js';
import type { SocketRegistry, UserEnd } from '../realtime/socket-registry.js';
import { deleteUserAndData, type DeletedUser } from '../users/delete-user.js';

/** Where a deletion is told: the live servers' bus, from the server itself or the admin command. */
export interface DeletionAnnouncer {
  endUser(userId: string, end: UserEnd): Promise<void>;
  channelEvent(event: ChannelEvent): Promise<void> | void;
}

/**
 * Tells every instance that a user is gone (committed already): their sockets and voice close
 * everywhere, the channels they created close their voice rooms and floors and disappear for
 * their other members, and they leave the channels they were in.
 */
export async function announceDeletedUser(
  deleted: DeletedUser,
  announce: DeletionAnnouncer,
): Promise<void> {
  await announce.endUser(deleted.userId, {
    reason: 'account_deleted',
    closedChannelIds: deleted.createdChannels.map((channel) => channel.id),
    leftChannelIds: deleted.memberOf,
  });
  for (const channel of deleted.createdChannels) {
    await announce.channelEvent({
      type: 'channel_deleted',
      channelId: channel.id,
      memberIds: channel.memberIds,
    });
  }
  for (const channelId of deleted.memberOf) {
    await announce.channelEvent({ type: 'member_removed', channelId, userId: deleted.userId });
  }
}

/** What deleting an account from a running server touches. */
export interface DeleteAccountDeps {
  db: Database;
  /** The kept transmissions' audio the deletion takes with it (opaque here). */
  transmissions: {
    audioOfUser(userId: string): Promise<object[]>;
    audioDeleted(audio: object[]): Promise<void>;
    channelDeleted(channelId: number): Promise<void>;
  };
  sockets: Pick<SocketRegistry, 'endUser'>;
  channelEvents: Pick<ChannelEvents, 'publish'>;
}

/** Deletes a user from a running server and tells everyone live (see `announceDeletedUser`). */
export async function deleteAccount(deps: DeleteAccountDeps, userId: string): Promise<void> {
  const { transmissions } = deps;
  // Their transmissions (and those of the channels they created) cascade with the rows; the audio
  // is found first and deleted once the deletion is committed (in the database it cascades too).
  const audio = await transmissions.audioOfUser(userId);
  const deleted = await deleteUserAndData(deps.db, userId);
  if (!deleted) return;
  await transmissions.audioDeleted(audio);
  for (const channel of deleted.createdChannels) await transmissions.channelDeleted(channel.id);
  await announceDeletedUser(deleted, {
    endUser: (id, end) => deps.sockets.endUser(id, end),
    channelEvent: (event) => deps.channelEvents.publish(event),
  });
}
