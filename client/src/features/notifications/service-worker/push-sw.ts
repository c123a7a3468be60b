import {
  notificationForPush,
  notificationOptions,
  tapPath,
  windowForTap,
  type WindowLike,
} from './push-routing';
import { PUSH_TAP_MESSAGE, type PushTapMessage } from './push-tap-message';

/**
 * The service worker's push handling, bundled on its own (`push-sw.js`) and loaded by the generated
 * worker with `importScripts`. Every push shows a notification; a tap goes to an open Chirp window
 * (which routes it without reloading, so a call in progress stays up) or opens one.
 */
declare const self: PushWorkerScope;

// The few service-worker types used here (the WebWorker lib cannot join the DOM lib in one program).
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  readonly data: { json(): unknown } | null;
}
interface NotificationEvent extends ExtendableEvent {
  readonly notification: Notification;
}
interface WindowClient extends WindowLike {
  postMessage(message: unknown): void;
  focus(): Promise<WindowClient>;
}
interface PushWorkerScope {
  readonly location: Location;
  readonly registration: ServiceWorkerRegistration;
  readonly clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<unknown>;
  };
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
}

self.addEventListener('push', (event) => {
  const data = event.data;
  const payload = notificationForPush(data ? () => data.json() : null);
  event.waitUntil(self.registration.showNotification(payload.title, notificationOptions(payload)));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const origin = self.location.origin;
  const path = tapPath(event.notification.data, origin);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const target = windowForTap(windows, origin);
      if (!target) {
        await self.clients.openWindow(path);
        return;
      }
      const message: PushTapMessage = { type: PUSH_TAP_MESSAGE, url: path };
      target.postMessage(message);
      await target.focus();
    })(),
  );
});
