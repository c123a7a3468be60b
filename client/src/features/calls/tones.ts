import { RINGTONE_REPEAT_MS } from '../../../../protocol/calls';

/** Spec §9 tone gain. */
const GAIN = 0.15;

let context: AudioContext | null = null;

function audio(): AudioContext | null {
  if (typeof AudioContext === 'undefined') return null;
  context ??= new AudioContext();
  if (context.state === 'suspended') context.resume().catch(() => undefined);
  return context;
}

/** Plays `steps` back to back: each a frequency for a duration, generated (no sound files). */
function play(steps: readonly { hz: number; seconds: number }[]): void {
  const ctx = audio();
  if (!ctx) return;
  let at = ctx.currentTime + 0.02;
  for (const { hz, seconds } of steps) {
    const oscillator = ctx.createOscillator();
    const gain = ctx.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.value = hz;
    gain.gain.setValueAtTime(GAIN, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + seconds);
    oscillator.connect(gain).connect(ctx.destination);
    oscillator.start(at);
    oscillator.stop(at + seconds);
    at += seconds;
  }
}

const RING = [
  { hz: 880, seconds: 0.4 },
  { hz: 660, seconds: 0.4 },
  { hz: 880, seconds: 0.4 },
  { hz: 660, seconds: 0.4 },
];

/** The incoming-call ringtone, repeated every 3 s (spec §2) until the returned stop is called. */
export function startRingtone(): () => void {
  play(RING);
  const timer = setInterval(() => play(RING), RINGTONE_REPEAT_MS);
  return () => clearInterval(timer);
}

/** The hangup tone on leaving a call (spec §4 "Tones"): falling, like the channel's disconnect tone. */
export function playHangupTone(): void {
  play([
    { hz: 480, seconds: 0.2 },
    { hz: 360, seconds: 0.2 },
    { hz: 240, seconds: 0.3 },
  ]);
}
