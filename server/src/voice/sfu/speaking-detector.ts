/**
 * Estimates whether a publisher is speaking from the size of its Opus packets. We negotiate no
 * header extensions (so no ssrc-audio-level) and do not decode audio on the server. Opus in VBR
 * mode spends clearly more bytes on voice than on silence, but the size of a talker's quiet depends
 * on the browser and the room (DTX frames of a few bytes, steady noise of 35 and more), so the
 * detector learns each talker's own floor and reports speech well above it.
 *
 * A talker's first packet is no guide to that floor: a browser sends nothing while its microphone
 * is off (decision 059), so the first packets are usually speech. The floor starts at most at
 * `MIN_SPEECH_BYTES` and learns from there; a floor taken from a first packet of speech kept the
 * talking indicator off until the talker's first pause (for a steady voice, never).
 */
export interface SpeakingDetectorOptions {
  /** Milliseconds a state must hold before it is reported, so short blips do not flap. */
  holdMs?: number;
}

export interface SpeakingChange {
  speaking: boolean;
  level: number;
}

/** Bytes above the floor that count as a full-scale level. */
const FULL_SCALE_BYTES = 80;
/** No packet this small is speech, whatever the floor. */
const MIN_SPEECH_BYTES = 18;

export class SpeakingDetector {
  private smoothed: number | undefined;
  private floor = 0;
  private speaking = false;
  private candidateSince: number | undefined;
  private readonly holdMs: number;

  constructor(options: SpeakingDetectorOptions = {}) {
    this.holdMs = options.holdMs ?? 150;
  }

  get isSpeaking(): boolean {
    return this.speaking;
  }

  get level(): number {
    const above = (this.smoothed ?? 0) - this.floor;
    return Math.min(1, Math.max(0, above / FULL_SCALE_BYTES));
  }

  /** Feeds one packet; returns a change when the speaking state flips. */
  push(payloadBytes: number, now: number): SpeakingChange | undefined {
    if (this.smoothed === undefined) {
      this.smoothed = payloadBytes;
      this.floor = Math.min(payloadBytes, MIN_SPEECH_BYTES);
    } else {
      this.smoothed = this.smoothed * 0.8 + payloadBytes * 0.2;
    }
    // The floor drops at once to quieter packets and creeps up only slowly (~20 s at 50 packets/s).
    this.floor =
      this.smoothed < this.floor
        ? this.smoothed
        : this.floor + (this.smoothed - this.floor) * 0.001;
    const on = Math.max(this.floor * 1.6, this.floor + 15, MIN_SPEECH_BYTES);
    const off = Math.max(this.floor * 1.3, this.floor + 8, MIN_SPEECH_BYTES * 0.7);
    const wantsSpeaking = this.speaking ? this.smoothed >= off : this.smoothed >= on;
    if (wantsSpeaking === this.speaking) {
      this.candidateSince = undefined;
      return undefined;
    }
    this.candidateSince ??= now;
    if (now - this.candidateSince < this.holdMs) return undefined;
    this.speaking = wantsSpeaking;
    this.candidateSince = undefined;
    return { speaking: this.speaking, level: this.level };
  }

  /** No packets for a while (muted, DTX, gone): report silence once. The floor is kept. */
  silence(): SpeakingChange | undefined {
    // Before the first packet there is no floor to fall back to; learn it from real packets.
    if (this.smoothed === undefined) return undefined;
    this.smoothed = this.floor;
    this.candidateSince = undefined;
    if (!this.speaking) return undefined;
    this.speaking = false;
    return { speaking: false, level: 0 };
  }
}
