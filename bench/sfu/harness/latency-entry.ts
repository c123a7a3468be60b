/**
 * Browser side of the latency bench. The talker's "microphone" is an oscillator behind a gain
 * node; a burst is the gain stepping from 0 to 0.5. The listener runs an AudioWorklet that reports
 * the audio-thread time of each onset (first loud render quantum after ≥ 50 ms of quiet), converted
 * to the page's wall clock. Both pages read the same machine clock (timeOrigin + now), so onset
 * minus burst start is mouth-to-ear, for the SFU and the direct P2P path alike.
 */
import { EmbeddedSfuTransport } from '../../../client/src/features/voice/transport/embedded-sfu-transport';
import type { LatencyBenchApi, LatencyBenchGlobal, LatencyOnset } from '../latency-bench-api';

export const context = new AudioContext();
export const gain = context.createGain();
gain.gain.value = 0;
export const oscillator = context.createOscillator();
oscillator.frequency.value = 440;
export const destination = context.createMediaStreamDestination();
oscillator.connect(gain).connect(destination);
oscillator.start();

export const wallNow = () => performance.timeOrigin + performance.now();
/** Wall-clock time of an audio-thread `currentTime`, via the context's own clock mapping. */
export function wallAt(contextTime: number): number {
  const stamp = context.getOutputTimestamp();
  const performanceTime = stamp.performanceTime ?? performance.now();
  return (
    performance.timeOrigin +
    performanceTime +
    (contextTime - (stamp.contextTime ?? contextTime)) * 1000
  );
}

const ONSET_WORKLET = `
class Onset extends AudioWorkletProcessor {
  constructor() { super(); this.quiet = 1000; this.measuring = 0; this.sum = 0; this.frames = 0; }
  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (channel) {
      let sum = 0;
      for (let i = 0; i < channel.length; i++) sum += channel[i] * channel[i];
      const loud = Math.sqrt(sum / channel.length) > 0.05;
      if (loud && this.quiet >= 19) {
        this.port.postMessage({ onset: currentTime });
        this.measuring = Math.ceil(0.02 * sampleRate / channel.length);
        this.sum = 0;
        this.frames = 0;
      }
      if (this.measuring > 0) {
        this.sum += sum;
        this.frames += channel.length;
        if (--this.measuring === 0) this.port.postMessage({ level: Math.sqrt(this.sum / this.frames) });
      }
      this.quiet = loud ? 0 : this.quiet + 1;
    }
    return true;
  }
}
registerProcessor('onset', Onset);
`;

/** Per onset: when it reaches the speaker (audio clock → wall clock), when the page learns of it, how loud it starts. */
const onsets: LatencyOnset[] = [];
/** Every remote track the page listens to, in order (a bench may tap the last one). */
export const remoteTracks: MediaStreamTrack[] = [];
const bursts: number[] = [];
let transport: EmbeddedSfuTransport | undefined;
let peer: RTCPeerConnection | undefined;
let workletReady: Promise<void> | undefined;

async function detectOnsets(track: MediaStreamTrack): Promise<void> {
  workletReady ??= context.audioWorklet.addModule(
    URL.createObjectURL(new Blob([ONSET_WORKLET], { type: 'text/javascript' })),
  );
  await workletReady;
  remoteTracks.push(track);
  const stream = new MediaStream([track]);
  // Chrome only feeds a remote WebRTC stream into WebAudio while a media element plays it.
  const element = new Audio();
  element.muted = true;
  element.srcObject = stream;
  await element.play().catch(() => undefined);
  const node = new AudioWorkletNode(context, 'onset');
  node.port.onmessage = (event: MessageEvent<{ onset?: number; level?: number }>) => {
    const { onset, level } = event.data;
    if (onset !== undefined) onsets.push({ played: wallAt(onset), detected: wallNow() });
    const last = onsets.at(-1);
    if (level !== undefined && last) last.firstLevel = level;
  };
  context.createMediaStreamSource(stream).connect(node);
}

/** Times onsets on whatever a transport attaches in #remote-audio (the talker's audio). */
export function listenToRemoteAudio(): void {
  const seen = new Set<MediaStreamTrack>();
  const watch = () => {
    for (const element of document.querySelectorAll<HTMLAudioElement>('#remote-audio audio')) {
      const track =
        element.srcObject instanceof MediaStream
          ? element.srcObject.getAudioTracks()[0]
          : undefined;
      if (track && !seen.has(track)) {
        seen.add(track);
        void detectOnsets(track);
      }
    }
  };
  setInterval(watch, 100);
}

function waitForIce(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    pc.addEventListener('icegatheringstatechange', () => {
      if (pc.iceGatheringState === 'complete') resolve();
    });
  });
}

export const bench: LatencyBenchApi = {
  async sfuConnect(url: string, token: string, talker: boolean): Promise<void> {
    await context.resume();
    transport = new EmbeddedSfuTransport({
      getUserMedia: () => Promise.resolve(destination.stream),
    });
    await transport.connect(url, token);
    if (talker) await transport.setMicrophoneEnabled(true);
    else listenToRemoteAudio();
  },
  async sfuDisconnect(): Promise<void> {
    await transport?.disconnect();
  },
  async setMicrophone(on: boolean): Promise<number> {
    const started = wallNow();
    await transport?.setMicrophoneEnabled(on);
    return started;
  },
  async p2pOffer(): Promise<string> {
    await context.resume();
    peer = new RTCPeerConnection({ iceServers: [] });
    const [track] = destination.stream.getAudioTracks();
    if (track) peer.addTrack(track, destination.stream);
    await peer.setLocalDescription(await peer.createOffer());
    await waitForIce(peer);
    return peer.localDescription?.sdp ?? '';
  },
  async p2pAnswer(offer: string): Promise<string> {
    await context.resume();
    peer = new RTCPeerConnection({ iceServers: [] });
    peer.ontrack = (event) => void detectOnsets(event.track);
    await peer.setRemoteDescription({ type: 'offer', sdp: offer });
    await peer.setLocalDescription(await peer.createAnswer());
    await waitForIce(peer);
    return peer.localDescription?.sdp ?? '';
  },
  async p2pAccept(answer: string): Promise<void> {
    await peer?.setRemoteDescription({ type: 'answer', sdp: answer });
  },
  p2pClose(): void {
    peer?.close();
  },
  /** Tone on for `onMs`, then off; returns the wall time the gain stepped up. */
  async burst(onMs: number): Promise<number> {
    const started = wallNow();
    gain.gain.setValueAtTime(0.5, context.currentTime);
    bursts.push(started);
    await new Promise((resolve) => setTimeout(resolve, onMs));
    gain.gain.setValueAtTime(0, context.currentTime);
    return started;
  },
  toneOn(on: boolean): void {
    gain.gain.setValueAtTime(on ? 0.5 : 0, context.currentTime);
  },
  takeOnsets(): LatencyOnset[] {
    return onsets.splice(0);
  },
};

(globalThis as unknown as LatencyBenchGlobal).bench = bench;
