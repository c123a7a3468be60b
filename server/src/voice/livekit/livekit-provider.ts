import { RoomServiceClient, TrackSource } from 'livekit-server-sdk';
import { userIdFromIdentity, voiceRoomName } from '../../../../protocol/voice-signalling.js';
import type { Config } from '../../config/config.js';
import type { VoiceProvider } from '../voice-provider.js';

/** LiveKit's HTTP API lives at the same host as its WebSocket URL. */
export function livekitHttpUrl(wsUrl: string): string {
  const url = new URL(wsUrl);
  url.protocol =
    url.protocol === 'wss:' ? 'https:' : url.protocol === 'ws:' ? 'http:' : url.protocol;
  return url.origin;
}

/**
 * LiveKit for scale-out. Admin mute revokes `canPublish` on the user's live participants (their
 * next token is minted without it too); removal and channel deletion go through RoomService.
 */
export function createLivekitProvider(config: Config, rooms?: RoomServiceClient): VoiceProvider {
  const { url, apiKey, apiSecret } = config.voice.livekit;
  if (!url || !apiKey || !apiSecret) {
    return {
      name: 'LiveKit',
      configured: false,
      apiKey: '',
      apiSecret: '',
      url: () => '',
      setPublisherMuted: async () => undefined,
      disconnectUser: async () => undefined,
      closeRoom: async () => undefined,
    };
  }
  const service = rooms ?? new RoomServiceClient(livekitHttpUrl(url), apiKey, apiSecret);
  const identitiesOf = async (channelId: number, userId: string) => {
    const participants = await service.listParticipants(voiceRoomName(channelId)).catch(() => []);
    return participants
      .map((p) => p.identity)
      .filter((identity) => userIdFromIdentity(identity) === userId);
  };
  return {
    name: 'LiveKit',
    configured: true,
    apiKey,
    apiSecret,
    url: () => url,
    async setPublisherMuted(channelId, userId, muted) {
      for (const identity of await identitiesOf(channelId, userId)) {
        await service.updateParticipant(voiceRoomName(channelId), identity, {
          permission: {
            canPublish: !muted,
            canSubscribe: true,
            canPublishData: true,
            canPublishSources: [TrackSource.MICROPHONE],
          },
        });
      }
    },
    async disconnectUser(channelId, userId) {
      for (const identity of await identitiesOf(channelId, userId)) {
        await service.removeParticipant(voiceRoomName(channelId), identity);
      }
    },
    async closeRoom(channelId) {
      await service.deleteRoom(voiceRoomName(channelId)).catch(() => undefined);
    },
  };
}
