import { RoomServiceClient, TrackSource, TwirpError } from 'livekit-server-sdk';
import { userIdFromIdentity } from '../../../../protocol/voice-signalling.js';
import type { Config } from '../../config/config.js';
import type { VoiceProvider } from '../voice-provider.js';
import { livekitHttpUrl, livekitRoomName } from './livekit-rooms.js';

export { livekitHttpUrl } from './livekit-rooms.js';

/** RoomService calls give up after this long, so an admin's request never hangs on a dead server. */
const ROOM_SERVICE_TIMEOUT_SECONDS = 5;

/** A room or participant that does not exist (nobody connected, or gone meanwhile): nothing to do. */
const isNotFound = (error: unknown) =>
  error instanceof TwirpError && (error.status === 404 || error.code === 'not_found');

const ignoreNotFound = (error: unknown) => {
  if (!isNotFound(error)) throw error;
};

/**
 * LiveKit for scale-out. Admin mute revokes `canPublish` on the user's live participants (their
 * next token is minted without it too); removal and channel deletion go through RoomService.
 * Failures reject, so the admin's request fails instead of silently leaving the audio on.
 */
export function createLivekitProvider(config: Config, rooms?: RoomServiceClient): VoiceProvider {
  const { url, apiKey, apiSecret, roomPrefix } = config.voice.livekit;
  const roomName = (channelId: number) => livekitRoomName(roomPrefix, channelId);
  if (!url || !apiKey || !apiSecret) {
    return {
      name: 'LiveKit',
      configured: false,
      apiKey: '',
      apiSecret: '',
      url: () => '',
      roomName,
      setPublisherMuted: async () => undefined,
      setFloor: async () => undefined,
      blockChanged: async () => undefined,
      disconnectUser: async () => undefined,
      closeRoom: async () => undefined,
    };
  }
  const service =
    rooms ??
    new RoomServiceClient(livekitHttpUrl(url), apiKey, apiSecret, {
      requestTimeout: ROOM_SERVICE_TIMEOUT_SECONDS,
    });
  /** Every live connection of the user in the channel's room (one per tab or device). */
  const identitiesOf = async (channelId: number, userId: string) => {
    const participants = await service
      .listParticipants(roomName(channelId))
      .catch((error: unknown) => {
        ignoreNotFound(error);
        return [];
      });
    return participants
      .map((p) => p.identity)
      .filter((identity) => userIdFromIdentity(identity) === userId);
  };
  const setCanPublish = async (channelId: number, identity: string, canPublish: boolean) => {
    await service
      .updateParticipant(roomName(channelId), identity, {
        permission: {
          canPublish,
          canSubscribe: true,
          canPublishData: true,
          canPublishSources: [TrackSource.MICROPHONE],
        },
      })
      .catch(ignoreNotFound);
  };
  return {
    name: 'LiveKit',
    configured: true,
    apiKey,
    apiSecret,
    url: () => url,
    roomName,
    async setPublisherMuted(channelId, userId, muted) {
      for (const identity of await identitiesOf(channelId, userId)) {
        await setCanPublish(channelId, identity, !muted);
      }
    },
    /** Walkie-talkie: publish permissions follow the floor (the holder's connections only). */
    async setFloor(channelId, floor) {
      if (floor.modeChanged) {
        const muted = new Set(floor.modeChanged.mutedUserIds);
        const participants = await service
          .listParticipants(roomName(channelId))
          .catch((error: unknown) => {
            ignoreNotFound(error);
            return [];
          });
        for (const { identity } of participants) {
          const userId = userIdFromIdentity(identity);
          if (userId === undefined) continue;
          const may = floor.walkie ? userId === floor.holderId : !muted.has(userId);
          await setCanPublish(channelId, identity, may);
        }
        return;
      }
      if (floor.previousHolderId && floor.previousHolderId !== floor.holderId) {
        for (const identity of await identitiesOf(channelId, floor.previousHolderId))
          await setCanPublish(channelId, identity, !floor.walkie);
      }
      if (floor.holderId) {
        for (const identity of await identitiesOf(channelId, floor.holderId))
          await setCanPublish(channelId, identity, true);
      }
    },
    blockChanged: async () => undefined,
    async disconnectUser(channelId, userId) {
      for (const identity of await identitiesOf(channelId, userId)) {
        await service.removeParticipant(roomName(channelId), identity).catch(ignoreNotFound);
      }
    },
    async closeRoom(channelId) {
      await service.deleteRoom(roomName(channelId)).catch(ignoreNotFound);
    },
  };
}
