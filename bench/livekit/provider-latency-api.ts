import type { LatencyBenchApi } from '../sfu/latency-bench-api.js';

/** The SFU latency harness plus the same calls through LiveKit's client (`livekit-transport.ts`). */
export interface ProviderLatencyBenchApi extends LatencyBenchApi {
  livekitConnect(url: string, token: string, talker: boolean): Promise<void>;
  /** Returns the wall time the microphone was switched. */
  livekitSetMicrophone(on: boolean): Promise<number>;
  livekitDisconnect(): Promise<void>;
}

export interface ProviderLatencyBenchGlobal {
  bench: ProviderLatencyBenchApi;
}
