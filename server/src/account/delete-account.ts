import { WS_CLOSE_CODES } from '../../../protocol/sockets.js';
import type { AppContext } from '../app-context.js';
import { deleteUserAndData } from '../users/delete-user.js';

/**
 * Deletes a user from a running server and tells everyone live: their channels disappear for the
 * other members (and their voice rooms close), they leave the channels they were in (and their
 * voice), and their own open sockets close.
 */
export async function deleteAccount(ctx: AppContext, userId: string): Promise<void> {
  // Their transmissions (and those of the channels they created) cascade with the rows; the audio
  // files are found first and unlinked once the deletion is committed.
  const files = await ctx.transmissions.filesOfUser(userId);
  const deleted = await deleteUserAndData(ctx.database.db, userId);
  if (!deleted) return;
  await ctx.transmissions.unlinkAll(files);
  for (const channel of deleted.createdChannels) await ctx.transmissions.channelDeleted(channel.id);
  for (const channel of deleted.createdChannels) {
    ctx.channelEvents.publish({ type: 'channel_deleted', channelId: channel.id, memberIds: channel.memberIds });
  }
  for (const channelId of deleted.memberOf) {
    ctx.channelEvents.publish({ type: 'member_removed', channelId, userId });
  }
  // Their sessions are gone; sockets of this instance end now, others fail at their next upgrade.
  ctx.hub.closeUser(userId, WS_CLOSE_CODES.unauthorized, 'Account deleted');
}
