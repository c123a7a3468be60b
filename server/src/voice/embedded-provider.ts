import { createHmac } from 'node:crypto';
import { VOICE_SIGNALLING_PATH, voiceRoomName } from '../../../protocol/voice-signalling.js';
import type { Config } from '../config/config.js';
import { sfuClientIceServers } from '../turn/turn-credentials.js';
import {
  createEmbeddedSfu,
  type EmbeddedSfu,
  type SfuAdmission,
  type SfuLogger,
  type SfuToken,
} from './sfu/embedded-sfu.js';
import type { VoiceProvider } from './voice-provider.js';
import { EMBEDDED_VOICE_API_KEY, createVoiceTokenVerifier } from './voice-token.js';

/** The built-in SFU's token secret: derived from the session secret, so nothing more to configure. */
export function embeddedVoiceSecret(sessionSecret: string): string {
  return createHmac('sha256', sessionSecret)
    .update('chirp embedded voice tokens')
    .digest('base64url');
}

/** The built-in SFU (its `/rtc` socket is mounted by registerVoice) as the app's voice provider. */
export function createEmbeddedProvider(
  config: Config,
  logger: SfuLogger,
  admit: (token: SfuToken) => Promise<SfuAdmission>,
): { provider: VoiceProvider; sfu: EmbeddedSfu } {
  const apiSecret = embeddedVoiceSecret(config.sessionSecret);
  const { rtcPortRange, announcedIp } = config.voice;
  const sfu = createEmbeddedSfu({
    verifyToken: createVoiceTokenVerifier({ apiSecret }),
    admit,
    logger,
    // The SFU reaches browsers on their host candidates unless a STUN server is configured. It does
    // not use TURN itself: it answers on its own (announced) address, which relays reach directly.
    iceServers: config.iceServersConfigured ? config.iceServers : [],
    clientIceServers: (userId) => sfuClientIceServers(config, userId),
    portRange: rtcPortRange ? [rtcPortRange.min, rtcPortRange.max] : undefined,
    announcedIp,
    iceTcp: true,
  });
  const wsScheme = config.publicUrl.protocol === 'https:' ? 'wss' : 'ws';
  const provider: VoiceProvider = {
    name: 'embedded',
    configured: true,
    apiKey: EMBEDDED_VOICE_API_KEY,
    apiSecret,
    url: () => `${wsScheme}://${config.publicUrl.host}${VOICE_SIGNALLING_PATH}`,
    roomName: (channelId) => voiceRoomName(channelId),
    setPublisherMuted: async (channelId, userId, muted) =>
      sfu.setPublisherMuted(voiceRoomName(channelId), userId, muted),
    setFloor: async (channelId, floor) =>
      sfu.setFloor(voiceRoomName(channelId), {
        walkie: floor.walkie,
        holderId: floor.holderId,
        expiresAt: floor.expiresAt ?? null,
        sos: floor.sos === true,
      }),
    // Its join is recorded a moment after the SFU let it in: the SFU's room is the first word.
    hasConnection: async (channelId, userId) =>
      sfu.participants(voiceRoomName(channelId)).some((p) => p.userId === userId),
    blockChanged: async (blockerId, blockedId, blocked) =>
      sfu.blockChanged(blockerId, blockedId, blocked),
    disconnectUser: async (channelId, userId) =>
      sfu.disconnectUser(voiceRoomName(channelId), userId, 'removed from channel'),
    closeRoom: async (channelId) => sfu.closeRoom(voiceRoomName(channelId)),
  };
  return { provider, sfu };
}
