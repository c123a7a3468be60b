/**
 * Per-member volume on the remote audio elements both transports attach to
 * `#remote-audio`: each element's stream runs through its own GainNode on the voice AudioContext,
 * and the element itself plays at volume 0 (Chromium delivers a remote WebRTC track to Web Audio
 * only while a media element plays it). Without Web Audio the element's own volume stands in,
 * which cannot go above 100 %.
 */
export interface RemoteAudioOutput {
  /** 0 silences, 1 plays as received, 2 doubles. */
  setGain(element: HTMLAudioElement, gain: number): void;
  /** Drops the graphs of elements that left the page. */
  keepOnly(elements: ReadonlySet<HTMLAudioElement>): void;
}

type Graph = { stream: MediaStream; source: MediaStreamAudioSourceNode; gain: GainNode };

/** How quickly a new gain is reached: short enough to feel immediate, long enough not to click. */
const GAIN_SMOOTHING_S = 0.015;

export class WebAudioOutput implements RemoteAudioOutput {
  private readonly graphs = new Map<HTMLAudioElement, Graph>();

  constructor(private readonly context: () => AudioContext | null) {}

  setGain(element: HTMLAudioElement, gain: number): void {
    const graph = this.graphOf(element, gain);
    if (!graph) {
      element.volume = Math.min(1, Math.max(0, gain));
      return;
    }
    if (element.volume !== 0) element.volume = 0;
    const param = graph.gain.gain;
    const now = graph.gain.context.currentTime;
    param.cancelScheduledValues(now);
    param.setTargetAtTime(gain, now, GAIN_SMOOTHING_S);
  }

  keepOnly(elements: ReadonlySet<HTMLAudioElement>): void {
    for (const [element, graph] of this.graphs) {
      if (!elements.has(element) || element.srcObject !== graph.stream) this.release(element);
    }
  }

  private graphOf(element: HTMLAudioElement, initialGain: number): Graph | undefined {
    const stream = element.srcObject;
    const existing = this.graphs.get(element);
    if (existing && existing.stream === stream) return existing;
    if (existing) this.release(element);
    if (typeof MediaStream === 'undefined' || !(stream instanceof MediaStream)) return undefined;
    if (stream.getAudioTracks().length === 0) return undefined;
    const ctx = this.context();
    if (!ctx) return undefined;
    try {
      const source = ctx.createMediaStreamSource(stream);
      const gain = ctx.createGain();
      // Set before connecting: a member joining muted or at 0 % is never heard, not even a moment.
      gain.gain.value = initialGain;
      source.connect(gain).connect(ctx.destination);
      const graph = { stream, source, gain };
      this.graphs.set(element, graph);
      return graph;
    } catch (error) {
      console.warn('voice: remote audio stays on its element (no Web Audio graph)', error);
      return undefined;
    }
  }

  private release(element: HTMLAudioElement): void {
    const graph = this.graphs.get(element);
    if (!graph) return;
    graph.source.disconnect();
    graph.gain.disconnect();
    this.graphs.delete(element);
  }
}
