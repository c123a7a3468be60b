import type { FastifyBaseLogger } from 'fastify';
import type { ChannelEvents } from '../realtime/channel-events.js';
import type { FinishedTransmission } from './transmission-recording.js';
import type { TransmissionStore } from './transmission-store.js';

/**
 * Keeps a finished transmission (when its channel does) and tells the channel's viewers; a failure
 * is logged, never thrown. Both voice providers' recorders end here.
 */
export async function keepAndAnnounce(
  deps: {
    store: Pick<TransmissionStore, 'keep'>;
    channelEvents: ChannelEvents;
    log: FastifyBaseLogger;
  },
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
