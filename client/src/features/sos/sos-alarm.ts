import type { Tone } from '../voice/tones';

/** A new alert: a long, high two-note alarm, unlike any other tone of Chirp, played once. */
export const SOS_ALARM_TONE: Tone = { frequencies: [1320, 880], seconds: 1.2 };
/** Three long buzzes where the device can vibrate; the push uses the same pattern. */
export { SOS_PUSH_VIBRATION as SOS_VIBRATION } from '../notifications/service-worker/push-routing';
