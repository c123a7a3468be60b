import { withChosenMicrophone } from './audio-devices';

/** Quieter than this reads as silence on the meter; 0 dBFS fills it. */
const FLOOR_DB = -60;
/** The meter moves about 15 times a second: smooth to the eye, light on React. */
const REPORT_EVERY_MS = 66;

/** A signal's loudness (RMS of samples in -1..1) as a 0..1 meter position, on a decibel scale. */
export function levelFromRms(rms: number): number {
  if (!(rms > 0)) return 0;
  const db = 20 * Math.log10(rms);
  return Math.min(1, Math.max(0, (db - FLOOR_DB) / -FLOOR_DB));
}

export function rmsOf(samples: Float32Array): number {
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return samples.length === 0 ? 0 : Math.sqrt(sum / samples.length);
}

export interface MicrophoneLevelDeps {
  getUserMedia(constraints: MediaStreamConstraints): Promise<MediaStream>;
  createContext(): AudioContext;
  requestFrame(callback: () => void): number;
  cancelFrame(handle: number): void;
  now(): number;
}

const browserDeps = (): MicrophoneLevelDeps => ({
  getUserMedia: (constraints) => navigator.mediaDevices.getUserMedia(constraints),
  createContext: () => new AudioContext(),
  requestFrame: (callback) => requestAnimationFrame(callback),
  cancelFrame: (handle) => cancelAnimationFrame(handle),
  now: () => performance.now(),
});

/**
 * Opens a microphone for the Settings test and reports its level until the returned function is
 * called. The sound goes to an analyser only, never to a speaker (no echo, no feedback howl).
 * Capture uses the voice's own settings (echo cancellation, noise suppression, auto gain), so the
 * meter shows what channel listeners would get.
 */
export async function openMicrophoneLevel(
  microphoneId: string | null,
  onLevel: (level: number) => void,
  deps: MicrophoneLevelDeps = browserDeps(),
): Promise<() => void> {
  const stream = await deps.getUserMedia({
    audio: withChosenMicrophone({ echoCancellation: true, noiseSuppression: true, autoGainControl: true }, microphoneId),
    video: false,
  });
  const context = deps.createContext();
  const source = context.createMediaStreamSource(stream);
  const analyser = context.createAnalyser();
  analyser.fftSize = 1024;
  source.connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  let frame = 0;
  let lastReport = -Infinity;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    const now = deps.now();
    if (now - lastReport >= REPORT_EVERY_MS) {
      lastReport = now;
      analyser.getFloatTimeDomainData(samples);
      onLevel(levelFromRms(rmsOf(samples)));
    }
    frame = deps.requestFrame(tick);
  };
  // A context made after a click runs; resume in case the browser started it suspended anyway.
  context.resume().catch(() => undefined);
  tick();
  return () => {
    if (stopped) return;
    stopped = true;
    deps.cancelFrame(frame);
    source.disconnect();
    for (const track of stream.getTracks()) track.stop();
    context.close().catch(() => undefined);
  };
}
