/** A short, friendly beep: long enough to notice, short enough not to talk over the channel. */
export const POKE_BEEP = { frequencyHz: 880, durationS: 0.15, gain: 0.15 } as const;
export const POKE_VIBRATION_MS = 200;

let context: AudioContext | null = null;

/**
 * Created on first use, not at load: browsers refuse to start audio before a user gesture, and by
 * the time a poke arrives the user has usually clicked something, so `resume()` succeeds.
 */
function audioContext(): AudioContext | null {
  if (context) return context;
  if (typeof AudioContext === 'undefined') return null;
  context = new AudioContext();
  return context;
}

export async function playPokeSound(): Promise<void> {
  const ctx = audioContext();
  if (!ctx) return;
  if (ctx.state === 'suspended') await ctx.resume();
  const oscillator = ctx.createOscillator();
  const gain = ctx.createGain();
  oscillator.type = 'sine';
  oscillator.frequency.value = POKE_BEEP.frequencyHz;
  const start = ctx.currentTime;
  const end = start + POKE_BEEP.durationS;
  gain.gain.setValueAtTime(POKE_BEEP.gain, start);
  // Ramp down instead of cutting off, which would click.
  gain.gain.exponentialRampToValueAtTime(0.001, end);
  oscillator.connect(gain).connect(ctx.destination);
  oscillator.start(start);
  oscillator.stop(end);
  oscillator.onended = () => gain.disconnect();
}

/** Vibrates where the device can (phones); a no-op elsewhere. */
export function vibrateForPoke(): void {
  navigator.vibrate?.(POKE_VIBRATION_MS);
}
