import type { Page } from '@playwright/test';

/**
 * What the page sends to its speakers: every node the app connects to an AudioContext's
 * destination is also tapped by an analyser (its level now) and a recorder (what played over a
 * window, for short tones). Per-member volume acts after the received stream
 * (levelFrom measures the stream itself), so only the output shows it. Installed before the app
 * loads; it observes the browser API and changes nothing the app does.
 */
export function installOutputProbe(): void {
  const taps = new Map<BaseAudioContext, AnalyserNode>();
  // A recorder's copy of each context's output: recording runs off the page's main thread, so a
  // short tone is kept even while a long task (a LiveKit connect, a renegotiation) stalls timers.
  const sinks = new Map<AudioContext, MediaStreamAudioDestinationNode>();
  // eslint-disable-next-line @typescript-eslint/unbound-method -- wrapped, and always called with its own `this`
  const connect = AudioNode.prototype.connect as (this: AudioNode, ...args: unknown[]) => unknown;
  // When each sound was connected to the output (a tone is connected as it starts to play).
  const connectedAt: number[] = [];
  AudioNode.prototype.connect = function (this: AudioNode, ...args: unknown[]) {
    if (args[0] instanceof AudioDestinationNode) {
      connectedAt.push(performance.now());
      const context = this.context;
      let tap = taps.get(context);
      if (!tap) {
        tap = context.createAnalyser();
        tap.fftSize = 2048;
        taps.set(context, tap);
        if (context instanceof AudioContext) {
          const sink = context.createMediaStreamDestination();
          connect.call(tap, sink);
          // The recorder gets no frames while its input is silent (so a silent window decoded as
          // nothing at all): an inaudible constant keeps it fed, and is 0 at every tone's frequency.
          const keepAlive = context.createConstantSource();
          keepAlive.offset.value = 1e-6;
          connect.call(keepAlive, sink);
          keepAlive.start();
          sinks.set(context, sink);
        }
      }
      connect.call(this, tap);
    }
    return connect.apply(this, args);
  } as typeof AudioNode.prototype.connect;
  const rms = (samples: Float32Array, from: number, to: number) => {
    let sum = 0;
    for (let i = from; i < to; i++) sum += samples[i]! * samples[i]!;
    return Math.sqrt(sum / (to - from));
  };
  /** The amplitude of `frequency` in samples[from, to) (a single-bin DFT, as Goertzel computes). */
  const amplitudeAt = (
    samples: Float32Array,
    from: number,
    to: number,
    frequency: number,
    sampleRate: number,
  ) => {
    let re = 0;
    let im = 0;
    const step = (2 * Math.PI * frequency) / sampleRate;
    for (let i = from; i < to; i++) {
      re += samples[i]! * Math.cos(step * i);
      im += samples[i]! * Math.sin(step * i);
    }
    return (2 * Math.hypot(re, im)) / (to - from);
  };
  /** The strongest amplitude of the tone's frequency over any window of its length. */
  const loudest = (samples: Float32Array, sampleRate: number, tone: ToneWindow) => {
    let level = 0;
    const window = Math.round(sampleRate * tone.seconds);
    const hop = Math.round(sampleRate / 200);
    for (let from = 0; from + window <= samples.length; from += hop)
      level = Math.max(level, amplitudeAt(samples, from, from + window, tone.hz, sampleRate));
    return level;
  };
  /** Records one context's output for `ms` and measures it. */
  const record = async (
    context: AudioContext,
    sink: MediaStreamAudioDestinationNode,
    ms: number,
    tone: ToneWindow,
  ) => {
    // Lossless, so the measure sees what was played (Opus would smear a 440 Hz voice into 420 Hz).
    const recorder = new MediaRecorder(sink.stream, { mimeType: 'audio/webm;codecs=pcm' });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => chunks.push(event.data);
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start();
    await new Promise((resolve) => setTimeout(resolve, ms));
    recorder.stop();
    await stopped;
    const audio = await context.decodeAudioData(await new Blob(chunks).arrayBuffer());
    return loudest(audio.getChannelData(0), audio.sampleRate, tone);
  };
  const probe = window as unknown as OutputProbe;
  probe.outputLevel = async () => {
    let level = 0;
    for (let i = 0; i < 6; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (const tap of taps.values()) {
        const samples = new Float32Array(tap.fftSize);
        tap.getFloatTimeDomainData(samples);
        level = Math.max(level, rms(samples, 0, samples.length));
      }
    }
    return level;
  };
  const watches: Promise<Heard>[] = [];
  probe.watchOutput = (ms, tone) => {
    const start = performance.now();
    const recordings = [...sinks].map(([context, sink]) => record(context, sink, ms, tone));
    watches.push(
      Promise.all(recordings).then((levels) => {
        const first = connectedAt.find((at) => at >= start);
        return { level: Math.max(0, ...levels), at: first === undefined ? null : first - start };
      }),
    );
    return watches.length - 1;
  };
  probe.watchedOutput = (id) => watches[id]!;
}

/**
 * A tone to listen for: its frequency, measured over windows of `seconds` (no longer than the
 * tone's steady part). Every tone the app plays and the tests' 440 Hz microphone are multiples of
 * 20 Hz: over 50 ms they are orthogonal, and over 250 ms even a voice starting mid-window leaks
 * at most its amplitude / 5π (6 %) into 420 Hz, so a voice does not pass for the busy tone.
 */
export type ToneWindow = { hz: number; seconds: number };

/**
 * What a watch heard: the level, and when the page first connected a sound to its output during
 * the watch (ms after it started; a tone is connected as it starts to play), if it did.
 */
export type Heard = { level: number; at: number | null };

type OutputProbe = {
  outputLevel: () => Promise<number>;
  watchOutput: (ms: number, tone: ToneWindow) => number;
  watchedOutput: (id: number) => Promise<Heard>;
};

/** The page's output level now (RMS over a few samples). */
export const outputLevel = (page: Page) =>
  page.evaluate(() => (window as unknown as OutputProbe).outputLevel());

/**
 * Starts listening to the page's output for `ms` for a tone (resolved once it listens, so a sound
 * the test causes next is inside the window) and returns how to read the result: the tone's
 * strongest amplitude, and when the first sound started.
 */
export async function watchOutput(
  page: Page,
  ms: number,
  tone: ToneWindow,
): Promise<() => Promise<Heard>> {
  const id = await page.evaluate(
    ({ duration, listenFor }) =>
      (window as unknown as OutputProbe).watchOutput(duration, listenFor),
    { duration: ms, listenFor: tone },
  );
  return () =>
    page.evaluate((watch) => (window as unknown as OutputProbe).watchedOutput(watch), id);
}
