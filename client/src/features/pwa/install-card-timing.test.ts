import { describe, expect, it } from 'vitest';
import { INSTALL_DISMISS_MS, installCardAllowed } from './install-card-timing';

describe('installCardAllowed', () => {
  it('never shows once installed', () => {
    expect(installCardAllowed({ installed: true, dismissedAt: null, now: 0 })).toBe(false);
  });
  it('shows when never dismissed', () => {
    expect(installCardAllowed({ installed: false, dismissedAt: null, now: 0 })).toBe(true);
  });
  it('stays hidden for 24 hours after a dismissal, then comes back', () => {
    const dismissedAt = 1_000_000;
    expect(installCardAllowed({ installed: false, dismissedAt, now: dismissedAt + INSTALL_DISMISS_MS - 1 })).toBe(false);
    expect(installCardAllowed({ installed: false, dismissedAt, now: dismissedAt + INSTALL_DISMISS_MS })).toBe(true);
  });
});
