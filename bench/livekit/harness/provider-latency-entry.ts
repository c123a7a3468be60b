/**
 * The SFU latency harness page (bench/sfu/harness/latency-entry.ts: tone bursts, onset worklet, one
 * machine clock) extended with the app's LiveKit transport, so P2P, the built-in SFU and LiveKit are
 * timed by the same instruments in one run.
 */
import { createLiveKitRoom } from '../../../client/src/features/voice/transport/livekit-room';
import { LiveKitTransport } from '../../../client/src/features/voice/transport/livekit-transport';
import {
  bench,
  context,
  destination,
  listenToRemoteAudio,
  wallNow,
} from '../../sfu/harness/latency-entry';
import type { ProviderLatencyBenchApi, ProviderLatencyBenchGlobal } from '../provider-latency-api';

let transport: LiveKitTransport | undefined;

export const providerBench: ProviderLatencyBenchApi = {
  ...bench,
  async livekitConnect(url, token, talker) {
    await context.resume();
    // livekit-client captures the microphone itself: hand it the harness's tone.
    navigator.mediaDevices.getUserMedia = () =>
      Promise.resolve(new MediaStream([destination.stream.getAudioTracks()[0]!.clone()]));
    transport = new LiveKitTransport(createLiveKitRoom);
    await transport.connect(url, token);
    if (talker) await transport.setMicrophoneEnabled(true);
    else listenToRemoteAudio();
  },
  async livekitSetMicrophone(on) {
    const started = wallNow();
    await transport?.setMicrophoneEnabled(on);
    return started;
  },
  async livekitDisconnect() {
    await transport?.disconnect();
  },
};

(globalThis as unknown as ProviderLatencyBenchGlobal).bench = providerBench;
