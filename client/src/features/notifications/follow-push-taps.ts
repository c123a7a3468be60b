import { navigate } from 'wouter/use-browser-location';
import { PUSH_TAP_MESSAGE } from './service-worker/push-tap-message';

/**
 * A notification tapped while Chirp is open: the service worker focuses this window and posts the
 * tap's path; the app goes there without a reload (a call or a transmission in progress carries on).
 * Returns the function that stops listening.
 */
export function followPushTaps(): () => void {
  const container = 'serviceWorker' in navigator ? navigator.serviceWorker : null;
  if (!container) return () => undefined;
  const onMessage = (event: MessageEvent<unknown>) => {
    const data = event.data;
    if (typeof data !== 'object' || data === null) return;
    const { type, url } = data as { type?: unknown; url?: unknown };
    if (type !== PUSH_TAP_MESSAGE || typeof url !== 'string' || !url.startsWith('/') || url.startsWith('//')) return;
    navigate(url);
  };
  container.addEventListener('message', onMessage);
  // Messages wait until the page says it listens (they are not dropped while it loads).
  container.startMessages();
  return () => container.removeEventListener('message', onMessage);
}
