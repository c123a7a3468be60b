import { pushPayloadSchema, type PushPayload } from '../../../../../protocol/push';

/** What a push that cannot be read shows: a push must always show something (Safari revokes silent pushers). */
export const FALLBACK_NOTIFICATION: PushPayload = {
  kind: 'test',
  title: 'Chirp',
  body: 'Something new in Chirp',
  tag: 'chirp',
  url: '/',
};

/**
 * The notification a push shows: its payload when it is one (`protocol/push.ts`), otherwise the
 * fallback. `readJson` is `PushMessageData.json`, which throws on text that is not JSON.
 */
export function notificationForPush(readJson: (() => unknown) | null): PushPayload {
  if (!readJson) return FALLBACK_NOTIFICATION;
  try {
    const parsed = pushPayloadSchema.safeParse(readJson());
    return parsed.success ? parsed.data : FALLBACK_NOTIFICATION;
  } catch {
    return FALLBACK_NOTIFICATION;
  }
}

/** Three long buzzes for an SOS (the alert screen buzzes the same way). */
export const SOS_PUSH_VIBRATION: readonly number[] = [400, 150, 400, 150, 800];

/** The options a push's notification is shown with (the DOM types lack `vibrate` and `renotify`). */
export type PushNotificationOptions = {
  body: string;
  tag: string;
  data: { url: string; kind: PushPayload['kind'] };
  icon: string;
  badge: string;
  requireInteraction?: boolean;
  vibrate?: number[];
  renotify?: boolean;
};

/**
 * How a push shows. An SOS (decision 050) stays until the user acts on it, buzzes, and alerts again
 * when its notification is replaced; every other kind shows plainly.
 */
export function notificationOptions(payload: PushPayload): PushNotificationOptions {
  const options: PushNotificationOptions = {
    body: payload.body,
    tag: payload.tag,
    data: { url: payload.url, kind: payload.kind },
    icon: '/icon-192.png',
    badge: '/icon-192.png',
  };
  if (payload.kind !== 'sos') return options;
  return { ...options, requireInteraction: true, vibrate: [...SOS_PUSH_VIBRATION], renotify: true };
}

/**
 * The path a tap opens: the notification's url when it stays on this origin (a payload's
 * `//elsewhere` would leave it), else the main screen.
 */
export function tapPath(data: unknown, origin: string): string {
  const url = typeof data === 'object' && data !== null && 'url' in data ? data.url : undefined;
  if (typeof url !== 'string' || !url.startsWith('/')) return '/';
  try {
    const resolved = new URL(url, origin);
    if (resolved.origin !== origin) return '/';
    return `${resolved.pathname}${resolved.search}${resolved.hash}`;
  } catch {
    return '/';
  }
}

export interface WindowLike {
  url: string;
  focused: boolean;
  visibilityState: DocumentVisibilityState;
}

/** Which open window a tap goes to: the focused one, else a visible one, else any; null opens a new one. */
export function windowForTap<T extends WindowLike>(
  windows: readonly T[],
  origin: string,
): T | null {
  const ours = windows.filter((window) => {
    try {
      return new URL(window.url).origin === origin;
    } catch {
      return false;
    }
  });
  return (
    ours.find((window) => window.focused) ??
    ours.find((window) => window.visibilityState === 'visible') ??
    ours[0] ??
    null
  );
}
