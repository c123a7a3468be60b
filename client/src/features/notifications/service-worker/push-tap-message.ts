/** The message a service worker posts to an open window it routes a notification's tap to. */
export const PUSH_TAP_MESSAGE = 'chirp-push-tap';
export type PushTapMessage = { type: typeof PUSH_TAP_MESSAGE; url: string };
