/**
 * Browser side of the SFU end-to-end test: the real client transport, a WebAudio tone as the
 * microphone, and measurements (RTP counters, analyser levels) the test reads with page.evaluate.
 */
import { EmbeddedSfuTransport } from '../../../client/src/features/voice/transport/embedded-sfu-transport';
import { REMOTE_AUDIO_CONTAINER_ID } from '../../../client/src/features/voice/transport/remote-audio';

const audioContext = new AudioContext();

/** Every peer connection the transport makes, so a test can read what was negotiated. */
const peerConnections: RTCPeerConnection[] = [];
window.RTCPeerConnection = class extends window.RTCPeerConnection {
  constructor(configuration?: RTCConfiguration) {
    super(configuration);
    peerConnections.push(this);
  }
};

/** The codec each audio m-line of this browser's answers put first: what it sends and prefers. */
function answeredFirstCodecs(): string[] {
  const codecs: string[] = [];
  for (const pc of peerConnections) {
    const sdp = pc.currentLocalDescription?.sdp ?? '';
    for (const section of sdp.split('\r\nm=').slice(1)) {
      if (!section.startsWith('audio')) continue;
      const first = section.split('\r\n')[0]!.split(' ')[3];
      const rtpmap = new RegExp(`a=rtpmap:${first} ([^/]+)/`).exec(section);
      codecs.push(rtpmap ? rtpmap[1]!.toLowerCase() : '?');
    }
  }
  return codecs;
}
const analysers = new Map<HTMLAudioElement, AnalyserNode>();

/** A 440 Hz tone standing in for a voice: continuous, so its level is easy to assert. */
function toneMicrophone(): Promise<MediaStream> {
  const oscillator = audioContext.createOscillator();
  const gain = audioContext.createGain();
  gain.gain.value = 0.5;
  const destination = audioContext.createMediaStreamDestination();
  oscillator.frequency.value = 440;
  oscillator.connect(gain).connect(destination);
  oscillator.start();
  return Promise.resolve(destination.stream);
}

function remoteElements(): HTMLAudioElement[] {
  return [...document.querySelectorAll<HTMLAudioElement>(`#${REMOTE_AUDIO_CONTAINER_ID} audio`)];
}

function analyserFor(element: HTMLAudioElement): AnalyserNode | undefined {
  const stream = element.srcObject;
  if (!(stream instanceof MediaStream)) return undefined;
  let analyser = analysers.get(element);
  if (!analyser) {
    analyser = audioContext.createAnalyser();
    analyser.fftSize = 2048;
    audioContext.createMediaStreamSource(stream).connect(analyser);
    analysers.set(element, analyser);
  }
  return analyser;
}

function rms(analyser: AnalyserNode): number {
  const samples = new Float32Array(analyser.fftSize);
  analyser.getFloatTimeDomainData(samples);
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.sqrt(sum / samples.length);
}

let transport: EmbeddedSfuTransport | undefined;
/** The signalling sockets the transport opened, so a test can speak on them directly. */
const sockets: WebSocket[] = [];
const states: string[] = [];
const speaking: { userId: string; speaking: boolean }[] = [];

const harness = {
  states,
  speaking,
  /** Per peer connection: whether it negotiated an SCTP association (a data channel m-line). */
  sctpAssociations(): boolean[] {
    return peerConnections.map((pc) => pc.sctp !== null);
  },
  async connect(url: string, token: string, tone: boolean): Promise<void> {
    await audioContext.resume();
    transport = new EmbeddedSfuTransport({
      ...(tone ? { getUserMedia: toneMicrophone } : {}),
      createWebSocket: (socketUrl) => {
        const socket = new WebSocket(socketUrl);
        sockets.push(socket);
        return socket;
      },
    });
    transport.on('stateChanged', (state) => states.push(state));
    transport.on('speakingChanged', (change) =>
      speaking.push({ userId: change.participant.userId, speaking: change.speaking }),
    );
    await transport.connect(url, token);
  },
  async setMicrophone(on: boolean): Promise<void> {
    await transport?.setMicrophoneEnabled(on);
  },
  /** The error code setMicrophoneEnabled(true) rejects with, if any. */
  async microphoneError(): Promise<string | undefined> {
    try {
      await transport?.setMicrophoneEnabled(true);
      return undefined;
    } catch (error) {
      return (error as { code?: string }).code ?? String(error);
    }
  },
  async disconnect(): Promise<void> {
    await transport?.disconnect();
  },
  /** Asks the SFU for an ICE restart, as the transport does when its connection drops. */
  requestIceRestart(): void {
    sockets.at(-1)?.send(JSON.stringify({ type: 'restart_ice' }));
  },
  /** The local ICE username fragment of the candidate pair media currently flows on. */
  async selectedLocalUfrag(): Promise<string | undefined> {
    const stats = await transport?.getStats();
    let pairId: string | undefined;
    stats?.forEach((report: { type: string; selectedCandidatePairId?: string }) => {
      if (report.type === 'transport') pairId = report.selectedCandidatePairId;
    });
    const pair = pairId
      ? (stats?.get(pairId) as { localCandidateId?: string } | undefined)
      : undefined;
    const local = pair?.localCandidateId
      ? (stats?.get(pair.localCandidateId) as { usernameFragment?: string } | undefined)
      : undefined;
    return local?.usernameFragment;
  },
  elements(): { identity: string; userId: string }[] {
    return remoteElements().map((e) => ({
      identity: e.dataset.participantIdentity ?? '',
      userId: e.dataset.userId ?? '',
    }));
  },
  /** Highest RMS level per remote user over `samples` reads 50 ms apart (one read: right now). */
  async levels(samples = 5): Promise<Record<string, number>> {
    const result: Record<string, number> = {};
    for (let i = 0; i < samples; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      for (const element of remoteElements()) {
        const analyser = analyserFor(element);
        const userId = element.dataset.userId ?? '';
        if (analyser) result[userId] = Math.max(result[userId] ?? 0, rms(analyser));
      }
    }
    return result;
  },
  /**
   * What this page's browser receives and sends: the inbound audio's concealed and received
   * samples (summed over remote talkers), and the first codec of each audio m-line in its answers
   * ('red' when it agreed to send and receive Opus RED; Chrome's statistics name the decoder's
   * codec, Opus, either way).
   */
  async audioQuality(): Promise<{
    concealedSamples: number;
    totalSamplesReceived: number;
    /** RTCP NACKs the browser sent for lost audio packets. */
    nackCount: number;
    /** Packets that never came, after what was sent again (a resent packet fills its gap). */
    packetsLost: number;
    answeredCodecs: string[];
  }> {
    const stats = await transport?.getStats();
    const result = {
      concealedSamples: 0,
      totalSamplesReceived: 0,
      nackCount: 0,
      packetsLost: 0,
      answeredCodecs: answeredFirstCodecs(),
    };
    stats?.forEach(
      (report: {
        type: string;
        kind?: string;
        concealedSamples?: number;
        totalSamplesReceived?: number;
        nackCount?: number;
        packetsLost?: number;
      }) => {
        if (report.type !== 'inbound-rtp' || report.kind !== 'audio') return;
        result.nackCount += report.nackCount ?? 0;
        result.packetsLost += report.packetsLost ?? 0;
        result.concealedSamples += report.concealedSamples ?? 0;
        result.totalSamplesReceived += report.totalSamplesReceived ?? 0;
      },
    );
    return result;
  },
  /** Inbound RTP packets per remote user, and this page's outbound audio packets. */
  async rtp(): Promise<{ inbound: Record<string, number>; outbound: number }> {
    const stats = await transport?.getStats();
    const userByMid = new Map(
      remoteElements().map((e) => [e.dataset.mid ?? '', e.dataset.userId ?? '']),
    );
    const inbound: Record<string, number> = {};
    let outbound = 0;
    stats?.forEach(
      (report: {
        type: string;
        mid?: string;
        packetsReceived?: number;
        packetsSent?: number;
        kind?: string;
      }) => {
        if (report.type === 'inbound-rtp' && report.kind === 'audio') {
          const userId = userByMid.get(report.mid ?? '') ?? `mid:${report.mid}`;
          inbound[userId] = (inbound[userId] ?? 0) + (report.packetsReceived ?? 0);
        }
        if (report.type === 'outbound-rtp' && report.kind === 'audio')
          outbound += report.packetsSent ?? 0;
      },
    );
    return { inbound, outbound };
  },
};

declare global {
  interface Window {
    harness: typeof harness;
  }
}
window.harness = harness;
