/**
 * The network bench's page: the provider latency harness (P2P, built-in SFU and LiveKit through
 * the app's own transports, tone bursts and onsets on one clock) plus a known speech signal at the
 * talker, a recorder of the remote audio at the listener, and the receivers' statistics.
 */
import { providerBench } from '../../livekit/harness/provider-latency-entry';
import { context, gain, oscillator, remoteTracks, wallAt } from '../../sfu/harness/latency-entry';
import type { ListenerStats, NetworksBenchApi, NetworksBenchGlobal } from '../networks-bench-api';
import { scoreContinuity, SEGMENT_MS, speechPlan } from '../speech-continuity';

// Every peer connection the page makes, whichever transport made it, for its statistics.
const connections: RTCPeerConnection[] = [];
const NativePeerConnection = RTCPeerConnection;
class TrackedPeerConnection extends NativePeerConnection {
  constructor(configuration?: RTCConfiguration) {
    super(configuration);
    connections.push(this);
  }
}
globalThis.RTCPeerConnection = TrackedPeerConnection;

const RECORDER_WORKLET = `
class Recorder extends AudioWorkletProcessor {
  constructor() { super(); this.on = true; this.port.onmessage = () => { this.on = false; }; }
  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (channel && this.on) this.port.postMessage({ at: currentTime, samples: channel.slice() });
    return this.on;
  }
}
registerProcessor('recorder', Recorder);
`;

let recorderReady: Promise<void> | undefined;
let recorder: { node: AudioWorkletNode; chunks: Float32Array[]; startedAt?: number } | undefined;

const api: NetworksBenchApi = {
  ...providerBench,
  async speech(seed, durationMs) {
    const plan = speechPlan(seed, durationMs);
    const start = context.currentTime + 0.05;
    plan.forEach((segment, i) => {
      const at = start + (i * SEGMENT_MS) / 1000;
      oscillator.frequency.setValueAtTime(segment.frequency, at);
      gain.gain.setValueAtTime(segment.level, at);
    });
    const end = start + (plan.length * SEGMENT_MS) / 1000;
    gain.gain.setValueAtTime(0, end);
    oscillator.frequency.setValueAtTime(440, end);
    return wallAt(start);
  },
  async startRecording() {
    recorderReady ??= context.audioWorklet.addModule(
      URL.createObjectURL(new Blob([RECORDER_WORKLET], { type: 'text/javascript' })),
    );
    await recorderReady;
    const track = remoteTracks.at(-1);
    if (!track) throw new Error('no remote audio to record');
    const node = new AudioWorkletNode(context, 'recorder');
    const current = {
      node,
      chunks: [] as Float32Array[],
      startedAt: undefined as number | undefined,
    };
    node.port.onmessage = (event: MessageEvent<{ at: number; samples: Float32Array }>) => {
      current.startedAt ??= wallAt(event.data.at);
      current.chunks.push(event.data.samples);
    };
    context.createMediaStreamSource(new MediaStream([track])).connect(node);
    recorder = current;
  },
  scoreRecording(seed, durationMs, speechStart) {
    const current = recorder;
    if (!current?.startedAt) return { score: 0, frames: 0, lagMs: -1 };
    current.node.port.postMessage('stop');
    current.node.disconnect();
    recorder = undefined;
    const length = current.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    const samples = new Float32Array(length);
    let offset = 0;
    for (const chunk of current.chunks) {
      samples.set(chunk, offset);
      offset += chunk.length;
    }
    const earliest = Math.round(speechStart - current.startedAt);
    return scoreContinuity(
      samples,
      context.sampleRate,
      speechPlan(seed, durationMs),
      earliest,
      earliest + 1_000,
    );
  },
  async stats() {
    const total: ListenerStats = {
      concealedSamples: 0,
      totalSamplesReceived: 0,
      jitterBufferDelay: 0,
      jitterBufferEmittedCount: 0,
      packetsReceived: 0,
      packetsLost: 0,
      codec: '',
    };
    let loudest = -1;
    for (const pc of connections) {
      if (pc.connectionState === 'closed') continue;
      const report = await pc.getStats();
      report.forEach((entry: RTCInboundRtpStreamStats & { kind?: string; codecId?: string }) => {
        if (entry.type !== 'inbound-rtp' || entry.kind !== 'audio') return;
        total.concealedSamples += entry.concealedSamples ?? 0;
        total.totalSamplesReceived += entry.totalSamplesReceived ?? 0;
        total.jitterBufferDelay += entry.jitterBufferDelay ?? 0;
        total.jitterBufferEmittedCount += entry.jitterBufferEmittedCount ?? 0;
        total.packetsReceived += entry.packetsReceived ?? 0;
        total.packetsLost += entry.packetsLost ?? 0;
        const received = entry.packetsReceived ?? 0;
        if (received > loudest && entry.codecId) {
          loudest = received;
          const codec = report.get(entry.codecId) as { mimeType?: string } | undefined;
          total.codec = codec?.mimeType ?? '';
        }
      });
    }
    return total;
  },
};

(globalThis as unknown as NetworksBenchGlobal).bench = api;
