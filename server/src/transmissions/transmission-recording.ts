import { randomInt } from 'node:crypto';
import { oggOpusFile, opusPacketIsStereo, opusPacketSamples } from './ogg-opus.js';

/** An Opus frame (CELT, 20 ms) that decodes to digital silence: fills gaps in the packet stream. */
const OPUS_SILENCE = Buffer.from([0xf8, 0xff, 0xfe]);
const SILENCE_SAMPLES = 960;
/** A gap longer than this (the talker's link stalled) is not filled beyond it. */
const MAX_GAP_SAMPLES = 48_000 * 5;
/** Shorter than this is a slip of the finger, not a transmission worth keeping. */
export const MIN_TRANSMISSION_MS = 300;
/** The longest floor (a channel's maximum transmission time is at most 300 s). */
export const MAX_RECORDING_MS = 300_000;
/**
 * The audio a recording may hold runs this far ahead of the wall clock: the first packet's own
 * length (up to 120 ms) and a browser's jitter. Beyond it, the RTP timestamps (which the client
 * writes) claim more time than has passed, and what they claim is not kept.
 */
const WALL_CLOCK_SLACK_MS = 250;
/**
 * Opus voice is about 32 kbit/s; a recording keeps at most 64 kbit/s of it (8 kB a second, after
 * a first second's worth), so a 5 s hold is never more than about 48 kB. Packets past it are
 * dropped, as a hostile client's padding would be.
 */
export const RECORDING_BYTES_PER_SECOND = 8_000;
const RECORDING_BYTE_BURST = 8_000;
const SAMPLES_PER_MS = 48;
/** Upper bound of one recording's packets: the longest floor of 10 ms frames, plus slack. */
const MAX_PACKETS = 100 * 310;

export interface FinishedTransmission {
  speakerId: string;
  startedAt: Date;
  durationMs: number;
  ogg: Buffer;
}

export interface RecordingBounds {
  /** The hold's own limit: the time left of the floor grant it records (≤ `MAX_RECORDING_MS`). */
  maxMs?: number;
  /** The recorder's clock (epoch ms); tests move it by hand. */
  now?: () => number;
}

/**
 * One walkie-talkie transmission as the media path sees it: the floor holder's Opus packets in RTP
 * timestamp order, gaps (lost packets, DTX) filled with silence so the file plays in real time.
 * Only one source (the first SSRC seen) is kept, so a second device of the same user cannot mix in.
 *
 * Every recorder (the built-in SFU's and LiveKit's) is bounded the same way, by the recorder's own
 * wall clock rather than by anything the client writes: the audio never runs ahead of the time
 * since the hold began, nothing is kept after the hold's limit, and the payload kept never exceeds
 * `RECORDING_BYTES_PER_SECOND` on average.
 */
export class TransmissionRecording {
  readonly startedAt: Date;
  private readonly packets: Buffer[] = [];
  private readonly now: () => number;
  private readonly maxMs: number;
  private ssrc: number | undefined;
  private lastTimestamp = 0;
  private lastSamples = 0;
  private samples = 0;
  private bytes = 0;

  constructor(
    readonly speakerId: string,
    bounds: RecordingBounds = {},
  ) {
    this.now = bounds.now ?? Date.now;
    this.maxMs = Math.max(0, Math.min(bounds.maxMs ?? MAX_RECORDING_MS, MAX_RECORDING_MS));
    this.startedAt = new Date(this.now());
  }

  push(ssrc: number, timestamp: number, payload: Buffer): void {
    if (this.ssrc === undefined) this.ssrc = ssrc;
    else if (ssrc !== this.ssrc) return;
    const samples = opusPacketSamples(payload);
    if (samples === 0 || this.packets.length >= MAX_PACKETS) return;
    const elapsedMs = this.now() - this.startedAt.getTime();
    if (elapsedMs > this.maxMs) return;
    const allowedSamples =
      Math.min(elapsedMs + WALL_CLOCK_SLACK_MS, this.maxMs) * SAMPLES_PER_MS - samples;
    const allowedBytes = RECORDING_BYTE_BURST + (elapsedMs / 1000) * RECORDING_BYTES_PER_SECOND;
    if (this.samples > allowedSamples || this.bytes + payload.length > allowedBytes) return;
    if (this.packets.length > 0) {
      // Signed 32-bit distance from the last packet kept: late or repeated packets are dropped.
      const ahead = (timestamp - this.lastTimestamp) | 0;
      if (ahead <= 0) return;
      let gap = Math.min(ahead - this.lastSamples, MAX_GAP_SAMPLES, allowedSamples - this.samples);
      while (gap >= SILENCE_SAMPLES) {
        this.packets.push(OPUS_SILENCE);
        this.samples += SILENCE_SAMPLES;
        gap -= SILENCE_SAMPLES;
      }
    }
    // The payload buffer belongs to the network layer; keep a copy.
    this.packets.push(Buffer.from(payload));
    this.samples += samples;
    this.bytes += payload.length;
    this.lastTimestamp = timestamp;
    this.lastSamples = samples;
  }

  get durationMs(): number {
    return Math.round(this.samples / SAMPLES_PER_MS);
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
