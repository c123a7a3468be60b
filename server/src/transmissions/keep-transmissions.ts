import type { FastifyBaseLogger } from 'fastify';
import { channelIdOfRoom } from '../../../protocol/voice-signalling.js';
import type { ChannelEvents } from '../realtime/channel-events.js';
import type { EmbeddedSfu } from '../voice/sfu/embedded-sfu.js';
import type { TransmissionStore } from './transmission-store.js';

/**
 * The built-in SFU records each walkie-talkie transmission from the packets it forwards; this keeps
 * them (when the channel does) and tells the channel's viewers. Returns the unsubscribe function.
 */
export function keepEmbeddedTransmissions(
  sfu: EmbeddedSfu,
  store: TransmissionStore,
  channelEvents: ChannelEvents,
  log: FastifyBaseLogger,
): () => void {
  return sfu.on('transmissionRecorded', ({ roomName, transmission, heardBy }) => {
    const channelId = channelIdOfRoom(roomName);
    if (channelId === undefined) return;
    store
      .keep(channelId, transmission, heardBy)
      .then((kept) => {
        if (kept) channelEvents.publish({ type: 'transmissions_changed', channelId });
      })
      .catch((error: unknown) =>
        log.error({ err: error, channelId }, 'transmission not kept'),
      );
  });
}
