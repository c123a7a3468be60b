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
export function windowForTap<T extends WindowLike>(windows: readonly T[], origin: string): T | null {
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
