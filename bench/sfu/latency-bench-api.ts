/**
 * What the latency harness page exposes as `globalThis.bench`. Plain types only: the bench
 * process is type-checked without DOM types, while the page implements this in harness/.
 */
export interface LatencyBenchApi {
  sfuConnect(url: string, token: string, talker: boolean): Promise<void>;
  sfuDisconnect(): Promise<void>;
  /** Returns the wall time the microphone was switched. */
  setMicrophone(on: boolean): Promise<number>;
  p2pOffer(): Promise<string>;
  p2pAnswer(offer: string): Promise<string>;
  p2pAccept(answer: string): Promise<void>;
  p2pClose(): void;
  /** Tone on for `onMs`, then off; returns the wall time the tone started. */
  burst(onMs: number): Promise<number>;
  toneOn(on: boolean): void;
  takeOnsets(): LatencyOnset[];
}

/** One onset heard at the listener. */
export interface LatencyOnset {
  /** Wall time the onset leaves the audio output. */
  played: number;
  /** Wall time the page learned of it. */
  detected: number;
  /** RMS of the first 20 ms from the onset on (a clipped first syllable is quieter). */
  firstLevel?: number;
}

export interface LatencyBenchGlobal {
  bench: LatencyBenchApi;
}
