import type { ProviderLatencyBenchApi } from '../livekit/provider-latency-api.js';

/** What a page's audio receivers report, summed over its inbound audio streams. */
export interface ListenerStats {
  concealedSamples: number;
  totalSamplesReceived: number;
  jitterBufferDelay: number;
  jitterBufferEmittedCount: number;
  packetsReceived: number;
  packetsLost: number;
  /** The codec the loudest stream is received with: `audio/red` when RED was negotiated. */
  codec: string;
}

export interface ContinuityReport {
  score: number;
  frames: number;
  lagMs: number;
}

/** The provider latency harness plus the network bench's signal, recorder and statistics. */
export interface NetworksBenchApi extends ProviderLatencyBenchApi {
  /** Plays the seeded speech signal; returns the wall time it starts at the talker's output. */
  speech(seed: number, durationMs: number): Promise<number>;
  /** Starts recording the remote audio. */
  startRecording(): Promise<void>;
  /** Stops recording and scores the speech that started at `speechStart` (talker's wall time). */
  scoreRecording(seed: number, durationMs: number, speechStart: number): ContinuityReport;
  stats(): Promise<ListenerStats>;
}

export interface NetworksBenchGlobal {
  bench: NetworksBenchApi;
}
