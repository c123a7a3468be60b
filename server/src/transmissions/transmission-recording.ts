import { randomInt } from 'node:crypto';
import { oggOpusFile, opusPacketIsStereo, opusPacketSamples } from './ogg-opus.js';

/** An Opus frame (CELT, 20 ms) that decodes to digital silence: fills gaps in the packet stream. */
const OPUS_SILENCE = Buffer.from([0xf8, 0xff, 0xfe]);
const SILENCE_SAMPLES = 960;
/** A gap longer than this (the talker's link stalled) is not filled beyond it. */
const MAX_GAP_SAMPLES = 48_000 * 5;
/** Shorter than this is a slip of the finger, not a transmission worth keeping. */
export const MIN_TRANSMISSION_MS = 300;
/** Upper bound of one recording's packets: 5 minutes (the longest floor) plus slack. */
const MAX_PACKETS = 50 * 60 * 6;

export interface FinishedTransmission {
  speakerId: string;
  startedAt: Date;
  durationMs: number;
  ogg: Buffer;
}

/**
 * One walkie-talkie transmission as the media path sees it: the floor holder's Opus packets in RTP
 * timestamp order, gaps (lost packets, DTX) filled with silence so the file plays in real time.
 * Only one source (the first SSRC seen) is kept, so a second device of the same user cannot mix in.
 */
export class TransmissionRecording {
  private readonly packets: Buffer[] = [];
  private ssrc: number | undefined;
  private lastTimestamp = 0;
  private lastSamples = 0;
  private samples = 0;

  constructor(
    readonly speakerId: string,
    readonly startedAt = new Date(),
  ) {}

  push(ssrc: number, timestamp: number, payload: Buffer): void {
    if (this.ssrc === undefined) this.ssrc = ssrc;
    else if (ssrc !== this.ssrc) return;
    const samples = opusPacketSamples(payload);
    if (samples === 0 || this.packets.length >= MAX_PACKETS) return;
    if (this.packets.length > 0) {
      // Signed 32-bit distance from the last packet kept: late or repeated packets are dropped.
      const ahead = (timestamp - this.lastTimestamp) | 0;
      if (ahead <= 0) return;
      let gap = Math.min(ahead - this.lastSamples, MAX_GAP_SAMPLES);
      while (gap >= SILENCE_SAMPLES) {
        this.packets.push(OPUS_SILENCE);
        this.samples += SILENCE_SAMPLES;
        gap -= SILENCE_SAMPLES;
      }
    }
    // The payload buffer belongs to the network layer; keep a copy.
    this.packets.push(Buffer.from(payload));
    this.samples += samples;
    this.lastTimestamp = timestamp;
    this.lastSamples = samples;
  }

  get durationMs(): number {
    return Math.round(this.samples / 48);
  }

  /** The Ogg Opus file, or null when too short to keep. */
  finish(): FinishedTransmission | null {
    if (this.durationMs < MIN_TRANSMISSION_MS) return null;
    const ogg = oggOpusFile(this.packets, {
      serial: randomInt(0x7fff_ffff),
      stereo: this.packets.some((packet) => opusPacketIsStereo(packet)),
    });
    return {
      speakerId: this.speakerId,
      startedAt: this.startedAt,
      durationMs: this.durationMs,
      ogg,
    };
  }
}
