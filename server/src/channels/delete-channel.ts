import type { FloorService } from '../floor/floor-service.js';
import type { Database } from '../db/database.js';
import type { ChannelEvents } from '../realtime/channel-events.js';
import { deleteChannel } from './channel-store.js';
import { onVoiceServer, type ChannelVoice } from './voice-server-error.js';

/** What deleting a channel touches. */
export interface DeleteChannelDeps {
  db: Database;
  /** Its voice room closes inside the transaction: if the voice server cannot, the channel stays. */
  voice: Pick<ChannelVoice, 'closeRoom'>;
  floor: Pick<FloorService, 'channelDeleted'>;
  /** The kept transmissions' audio (their rows cascade with the channel). */
  transmissions: { channelDeleted(channelId: number): Promise<void> };
  channelEvents: Pick<ChannelEvents, 'publish'>;
}

/**
 * Deletes a channel everywhere: its rows (memberships, invites and kept transmissions cascade) in
 * one transaction that also closes its voice room, then its former members are told
 * (`channel_deleted`), its walkie-talkie floor is forgotten and its transmissions' audio goes.
 */
export async function deleteChannelEverywhere(
  deps: DeleteChannelDeps,
  channelId: number,
): Promise<void> {
  const memberIds = await deleteChannel(deps.db, channelId, () =>
    onVoiceServer('delete the channel', () => deps.voice.closeRoom(channelId)),
  );
  deps.channelEvents.publish({ type: 'channel_deleted', channelId, memberIds });
  await deps.floor.channelDeleted(channelId);
  await deps.transmissions.channelDeleted(channelId);
}
