import { followChosenSpeaker } from '../voice-preferences/audio-devices';

/**
 * The tab's one AudioContext for voice: tones, the roger beep and the per-member gain of remote
 * audio share it (browsers cap how many a page may open). Created on first use, since a context
 * made before a user gesture starts suspended; `resume` is retried on the next gesture.
 */
let context: AudioContext | null = null;
let waitingForGesture = false;

function resumeOnNextGesture(ctx: AudioContext): void {
  if (waitingForGesture || typeof document === 'undefined') return;
  waitingForGesture = true;
  const resume = () => {
    waitingForGesture = false;
    for (const type of GESTURES) document.removeEventListener(type, resume, true);
    ctx.resume().catch(() => undefined);
  };
  for (const type of GESTURES) document.addEventListener(type, resume, true);
}

const GESTURES = ['pointerdown', 'keydown'] as const;

export function voiceAudioContext(): AudioContext | null {
  if (typeof AudioContext === 'undefined') return null;
  if (!context) {
    context = new AudioContext();
    // Channel voices, tones and the roger beep play on the speaker chosen in Settings.
    followChosenSpeaker(context);
  }
  if (context.state === 'suspended') {
    const ctx = context;
    ctx.resume().catch(() => undefined);
    // Refused without a gesture (autoplay policy): the user's next click or key starts the sound.
    resumeOnNextGesture(ctx);
  }
  return context;
}
