import { voiceAudioContext } from './audio-context';

/**
 * Spec §9 tones: connect 800 then 1000 Hz over 0.2 s (rising), disconnect 600 then 400 Hz over
 * 0.25 s (falling), gain 0.15. Generated with WebAudio so no sound files ship.
 */
export const TONE_GAIN = 0.15;

export type Tone = { frequencies: readonly [number, number]; seconds: number };

export const CONNECT_TONE: Tone = { frequencies: [800, 1000], seconds: 0.2 };
export const DISCONNECT_TONE: Tone = { frequencies: [600, 400], seconds: 0.25 };
/**
 * Roger beep (opt-in): a short high two-note chirp, distinct from the connect and leave
 * tones, that tells the talker their hold-to-talk ended ("over").
 */
export const ROGER_BEEP: Tone = { frequencies: [1400, 1800], seconds: 0.12 };

/**
 * Walkie-talkie floor: the talk permit is a short rising chirp, higher than the connect
 * tone ("go ahead"); the busy tone is a low, flat double note ("someone else is talking").
 */
export const TALK_PERMIT_TONE: Tone = { frequencies: [1200, 1600], seconds: 0.1 };
export const BUSY_TONE: Tone = { frequencies: [420, 420], seconds: 0.3 };

/** Which tone a change of the room's connected flag calls for, if any. */
export function toneForChange(wasConnected: boolean, connected: boolean): Tone | null {
  if (!wasConnected && connected) return CONNECT_TONE;
  if (wasConnected && !connected) return DISCONNECT_TONE;
  return null;
}

/** Plays the two halves of `tone` back to back; silently does nothing without WebAudio. */
export function playTone(tone: Tone): void {
  const ctx = voiceAudioContext();
  if (!ctx) return;
  const start = ctx.currentTime + 0.01;
  const half = tone.seconds / 2;
  const oscillator = ctx.createOscillator();
  const gain = ctx.createGain();
  oscillator.type = 'sine';
  oscillator.frequency.setValueAtTime(tone.frequencies[0], start);
  oscillator.frequency.setValueAtTime(tone.frequencies[1], start + half);
  gain.gain.setValueAtTime(TONE_GAIN, start);
  // Fade out over the last moment so the tone ends without a click.
  gain.gain.setValueAtTime(TONE_GAIN, start + tone.seconds - 0.02);
  gain.gain.linearRampToValueAtTime(0, start + tone.seconds);
  oscillator.connect(gain).connect(ctx.destination);
  oscillator.start(start);
  oscillator.stop(start + tone.seconds);
}
