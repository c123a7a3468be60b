import type { Page } from '@playwright/test';

/**
 * What the page sends to its speakers: every node the app connects to an AudioContext's
 * destination is also tapped by an analyser. Per-member volume acts after the received stream
 * (levelFrom measures the stream itself), so only the output shows it. Installed before the app
 * loads; it observes the browser API and changes nothing the app does.
 */
export function installOutputProbe(): void {
  const taps = new Map<BaseAudioContext, AnalyserNode>();
  // eslint-disable-next-line @typescript-eslint/unbound-method -- wrapped, and always called with its own `this`
  const connect = AudioNode.prototype.connect as (this: AudioNode, ...args: unknown[]) => unknown;
  AudioNode.prototype.connect = function (this: AudioNode, ...args: unknown[]) {
    if (args[0] instanceof AudioDestinationNode) {
      let tap = taps.get(this.context);
      if (!tap) {
        tap = this.context.createAnalyser();
        tap.fftSize = 2048;
        taps.set(this.context, tap);
      }
      connect.call(this, tap);
    }
    return connect.apply(this, args);
  } as typeof AudioNode.prototype.connect;
  (window as unknown as { outputLevel: () => Promise<number> }).outputLevel = async () => {
    let level = 0;
    for (let i = 0; i < 6; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (const tap of taps.values()) {
        const samples = new Float32Array(tap.fftSize);
        tap.getFloatTimeDomainData(samples);
        const rms = Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / samples.length);
        level = Math.max(level, rms);
      }
    }
    return level;
  };
  // The loudest moment over `ms`, sampled every 10 ms: short sounds such as a beep.
  (window as unknown as { outputPeak: (ms: number) => Promise<number> }).outputPeak = async (
    ms,
  ) => {
    let peak = 0;
    const end = performance.now() + ms;
    while (performance.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      for (const tap of taps.values()) {
        const samples = new Float32Array(tap.fftSize);
        tap.getFloatTimeDomainData(samples);
        const rms = Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / samples.length);
        peak = Math.max(peak, rms);
      }
    }
    return peak;
  };
}

/** The page's output level now (RMS over a few samples). */
export const outputLevel = (page: Page) =>
  page.evaluate(() => (window as unknown as { outputLevel: () => Promise<number> }).outputLevel());
/** The loudest output over the next `ms` (sampled every 10 ms): short sounds such as tones. */
export const outputPeak = (page: Page, ms: number) =>
  page.evaluate(
    (duration) =>
      (window as unknown as { outputPeak: (ms: number) => Promise<number> }).outputPeak(duration),
    ms,
  );
