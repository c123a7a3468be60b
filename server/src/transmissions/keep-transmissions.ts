import type { FastifyBaseLogger } from 'fastify';
import type { ChannelEvents } from '../realtime/channel-events.js';
import type { FinishedTransmission } from './transmission-recording.js';
import type { TransmissionStore } from './transmission-store.js';

/** A transmission that was just kept, as the recorder knew it. */
export interface KeptTransmission {
  channelId: number;
  speakerId: string;
  startedAt: Date;
  durationMs: number;
  /** Who heard it live. */
  heardBy: readonly string[];
}

export interface KeepDeps {
  store: Pick<TransmissionStore, 'keepTransmission'>;
  channelEvents: ChannelEvents;
  log: FastifyBaseLogger;
  /** Told of each transmission kept; never waits nor throws (push notifications to who did not hear it live). */
  kept?: ((kept: KeptTransmission) => void) | undefined;
  /**
   * Told instead when what was kept is an SOS's audio (its alert already pushed): the alert, with
   * its audio, goes to the channel's members again. Never waits nor throws.
   */
  sosKept?: ((alertId: string) => void) | undefined;
}

/**
 * Keeps a finished transmission (when its channel does) and tells the channel's viewers; a failure
 * is logged, never thrown. Both voice providers' recorders end here.
 */
export async function keepAndAnnounce(
  deps: KeepDeps,
  channelId: number,
  transmission: FinishedTransmission,
  heardBy: string[],
): Promise<void> {
  try {
    const kept = await deps.store.keepTransmission(channelId, transmission, heardBy);
    if (kept) {
      const { speakerId, startedAt, durationMs } = transmission;
      if (kept.sosAlertId !== null) deps.sosKept?.(kept.sosAlertId);
      else deps.kept?.({ channelId, speakerId, startedAt, durationMs, heardBy });
      deps.channelEvents.publish({ type: 'transmissions_changed', channelId });
    }
  } catch (error) {
    deps.log.error({ err: error, channelId }, 'transmission not kept');
  }
}
