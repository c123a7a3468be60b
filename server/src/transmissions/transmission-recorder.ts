import {
  MAX_RECORDING_MS,
  TransmissionRecording,
  type FinishedTransmission,
} from './transmission-recording.js';

/**
 * A recording still open this long after its hold's end missed that end (the channel was deleted
 * under it, a message was lost) and is finished; it keeps nothing after the hold's end anyway.
 */
export const RECORDING_END_GRACE_MS = 5_000;

/** How a recording ended: kept, or too short to keep (`transmission` null). */
export interface RecordingOutcome {
  channelId: number;
  speakerId: string;
  recordedMs: number;
  transmission: FinishedTransmission | null;
}

export interface TransmissionRecorderDeps {
  /**
   * Who is in the channel's voice room when a transmission ends (user ids; the speaker and repeats
   * are left out): they heard it live. Asked at once, so a list the voice server holds is of that
   * moment.
   */
  listeners(channelId: number): readonly string[] | Promise<readonly string[]>;
  /** Keeps a finished transmission; never throws (see `keepAndAnnounce`). */
  keep(channelId: number, transmission: FinishedTransmission, heardBy: string[]): Promise<void>;
  /** A recording ended, kept or not. */
  finished?(outcome: RecordingOutcome): void;
  /** Listing the listeners failed: the transmission is not kept. */
  failed(error: unknown, channelId: number): void;
  /** The recordings' clock (epoch ms); tests move it by hand. */
  now?: () => number;
}

interface Open {
  recording: TransmissionRecording;
  limitTimer: NodeJS.Timeout;
}

/**
 * Walkie-talkie recording for either voice provider: the floor says whose transmission is being
 * recorded and when it ends; the provider's media path hands on the packets it carries (the
 * built-in SFU's forwarded-packet tap, or LiveKit's listen-only participant), and only the
 * holder's go in. Each transmission is bounded by `TransmissionRecording` (the hold's limit, the
 * wall clock, a byte rate, one source) and, when its end is never heard, by a timer.
 */
export class TransmissionRecorder {
  private readonly open = new Map<number, Open>();
  private readonly now: () => number;

  constructor(private readonly deps: TransmissionRecorderDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * The channel's floor holder changed where this recorder is the one to record it: the holder's
   * transmission starts (and another's ends); null ends the one being recorded. The same holder
   * announced again (a join re-announces the floor) changes nothing.
   */
  holderChanged(channelId: number, holderId: string | null, expiresAt?: number | null): void {
    if ((this.open.get(channelId)?.recording.speakerId ?? null) === holderId) return;
    this.finish(channelId);
    if (!holderId) return;
    const maxMs = expiresAt ? expiresAt - this.now() : undefined;
    const recording = new TransmissionRecording(holderId, { maxMs, now: this.deps.now });
    const limitTimer = setTimeout(
      () => {
        if (this.open.get(channelId)?.recording === recording) this.finish(channelId);
      },
      Math.max(0, maxMs ?? MAX_RECORDING_MS) + RECORDING_END_GRACE_MS,
    );
    limitTimer.unref();
    this.open.set(channelId, { recording, limitTimer });
  }

  /**
   * The floor moved on, as heard from anywhere (another instance may have granted it): the
   * recording ends unless its speaker still holds the floor. Never starts one.
   */
  floorMovedOn(channelId: number, holderId: string | null): void {
    const open = this.open.get(channelId);
    if (open && open.recording.speakerId !== holderId) this.finish(channelId);
  }

  /** One packet the provider carried for `speakerId` in the channel. */
  packet(
    channelId: number,
    speakerId: string,
    ssrc: number,
    timestamp: number,
    payload: Buffer,
  ): void {
    const recording = this.open.get(channelId)?.recording;
    if (recording?.speakerId === speakerId) recording.push(ssrc, timestamp, payload);
  }

  /** Who is being recorded in the channel now, if anyone. */
  speakerOf(channelId: number): string | null {
    return this.open.get(channelId)?.recording.speakerId ?? null;
  }

  /** The channel is gone: what was being said goes with it. */
  discard(channelId: number): void {
    const open = this.open.get(channelId);
    if (!open) return;
    clearTimeout(open.limitTimer);
    this.open.delete(channelId);
  }

  /** Stops the timers; recordings still open are not kept. */
  close(): void {
    for (const channelId of [...this.open.keys()]) this.discard(channelId);
  }

  private finish(channelId: number): void {
    const open = this.open.get(channelId);
    if (!open) return;
    this.discard(channelId);
    const { recording } = open;
    const transmission = recording.finish();
    this.deps.finished?.({
      channelId,
      speakerId: recording.speakerId,
      recordedMs: recording.durationMs,
      transmission,
    });
    if (!transmission) return;
    let listeners: readonly string[] | Promise<readonly string[]>;
    try {
      listeners = this.deps.listeners(channelId);
    } catch (error) {
      this.deps.failed(error, channelId);
      return;
    }
    Promise.resolve(listeners)
      .then((userIds) => {
        const heardBy = [...new Set(userIds)].filter((id) => id !== transmission.speakerId);
        return this.deps.keep(channelId, transmission, heardBy);
      })
      .catch((error: unknown) => this.deps.failed(error, channelId));
  }
}
