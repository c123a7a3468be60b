import type { FastifyBaseLogger } from 'fastify';
import { channelIdOfRoom } from '../../../protocol/voice-signalling.js';
import type { ChannelEvents } from '../realtime/channel-events.js';
import type { EmbeddedSfu } from '../voice/sfu/embedded-sfu.js';
import type { FinishedTransmission } from './transmission-recording.js';
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
    void keepAndAnnounce({ store, channelEvents, log }, channelId, transmission, heardBy);
  });
}

/**
 * Keeps a finished transmission (when its channel does) and tells the channel's viewers; a failure
 * is logged, never thrown. Both voice providers' recorders end here.
 */
export async function keepAndAnnounce(
  deps: { store: TransmissionStore; channelEvents: ChannelEvents; log: FastifyBaseLogger },
  channelId: number,
  transmission: FinishedTransmission,
  heardBy: string[],
): Promise<void> {
  try {
    if (await deps.store.keep(channelId, transmission, heardBy))
      deps.channelEvents.publish({ type: 'transmissions_changed', channelId });
  } catch (error) {
    deps.log.error({ err: error, channelId }, 'transmission not kept');
  }
}
