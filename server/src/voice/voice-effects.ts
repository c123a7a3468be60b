import type { FastifyBaseLogger } from 'fastify';
import type { ChannelEvents } from '../realtime/channel-events.js';
import type { VoiceProvider } from './voice-provider.js';

/**
 * Channel changes that must reach the audio at once, whatever instance made them: an admin mute
 * stops forwarding, a removed member or a deleted channel is disconnected.
 */
export function withVoiceEffects(
  inner: ChannelEvents,
  voice: VoiceProvider,
  log: FastifyBaseLogger,
): ChannelEvents {
  const apply = async (event: Parameters<ChannelEvents['publish']>[0]) => {
    switch (event.type) {
      case 'member_muted':
        return voice.setPublisherMuted(
          event.channelId,
          event.member.userId,
          event.member.isMutedInChannel,
        );
      case 'member_removed':
        return voice.disconnectUser(event.channelId, event.userId);
      case 'channel_deleted':
        return voice.closeRoom(event.channelId);
      default:
        return undefined;
    }
  };
  return {
    publish(event) {
      inner.publish(event);
      apply(event).catch((error: unknown) =>
        log.error({ err: error, event: event.type }, 'voice effect failed'),
      );
    },
  };
}
