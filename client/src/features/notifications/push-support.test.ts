import { describe, expect, it } from 'vitest';
import { pushSupport, type BrowserTraits } from './push-support';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const IPAD_DESKTOP = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

const full: BrowserTraits = { hasServiceWorker: true, hasPushManager: true, hasNotification: true, userAgent: FIREFOX, maxTouchPoints: 0, standalone: false };
const safariTab = { ...full, hasPushManager: false, hasNotification: false, userAgent: IPHONE, maxTouchPoints: 5 };

describe('pushSupport', () => {
  it('is supported where the browser has a service worker, PushManager and Notification', () => {
    expect(pushSupport(full)).toBe('supported');
    expect(pushSupport({ ...safariTab, hasPushManager: true, hasNotification: true, standalone: true })).toBe('supported');
  });
  it('asks an iPhone or iPad Safari tab to add Chirp to the Home Screen first', () => {
    expect(pushSupport(safariTab)).toBe('needs-home-screen');
    expect(pushSupport({ ...safariTab, userAgent: IPAD_DESKTOP })).toBe('needs-home-screen');
  });
  it('says it cannot where there is no way (an old browser, or an installed app on an older iOS)', () => {
    expect(pushSupport({ ...full, hasPushManager: false })).toBe('unsupported');
    expect(pushSupport({ ...safariTab, standalone: true })).toBe('unsupported');
    // A Mac without a touch screen is not an iPad.
    expect(pushSupport({ ...safariTab, userAgent: IPAD_DESKTOP, maxTouchPoints: 0 })).toBe('unsupported');
  });
});
