/** Whether this browser can take notifications, and if not, what to tell the person. */
export type PushSupport = 'supported' | 'needs-home-screen' | 'unsupported';

export interface BrowserTraits {
  hasServiceWorker: boolean;
  hasPushManager: boolean;
  hasNotification: boolean;
  userAgent: string;
  /** `navigator.maxTouchPoints`: an iPad's Safari says "Macintosh" but has a touch screen. */
  maxTouchPoints: number;
  /** Opened from the Home Screen (`display-mode: standalone` or iOS's `navigator.standalone`). */
  standalone: boolean;
}

/** iPhone, iPod or iPad (including an iPad that asks for desktop sites). */
export function isAppleMobile(traits: Pick<BrowserTraits, 'userAgent' | 'maxTouchPoints'>): boolean {
  return /iPhone|iPad|iPod/.test(traits.userAgent) || (/Macintosh/.test(traits.userAgent) && traits.maxTouchPoints > 1);
}

/**
 * iOS and iPadOS (16.4+) give Web Push only to a web app added to the Home Screen: a Safari tab has
 * no `PushManager`, so there the answer is "add it first", not "cannot".
 */
export function pushSupport(traits: BrowserTraits): PushSupport {
  if (traits.hasServiceWorker && traits.hasPushManager && traits.hasNotification) return 'supported';
  if (isAppleMobile(traits) && !traits.standalone) return 'needs-home-screen';
  return 'unsupported';
}

/** This browser's traits. */
export function browserTraits(): BrowserTraits {
  const nav = navigator as Navigator & { standalone?: boolean };
  return {
    hasServiceWorker: 'serviceWorker' in navigator,
    hasPushManager: 'PushManager' in window,
    hasNotification: 'Notification' in window,
    userAgent: navigator.userAgent,
    maxTouchPoints: navigator.maxTouchPoints,
    standalone: nav.standalone === true || (typeof window.matchMedia === 'function' && window.matchMedia('(display-mode: standalone)').matches),
  };
}
