import { describe, expect, it } from 'vitest';
import { SignInThrottle } from './sign-in-throttle.js';

describe('SignInThrottle', () => {
  it('lets the first attempts through, then slows each further failure down', () => {
    let now = 0;
    const throttle = new SignInThrottle(3, 60_000, () => now);
    const keys = ['email:a@b.c', 'ip:1.2.3.4'];
    for (let i = 0; i < 3; i++) {
      expect(throttle.delayFor(keys)).toBe(0);
      throttle.recordFailure(keys);
    }
    expect(throttle.delayFor(keys)).toBe(1000);
    throttle.recordFailure(keys);
    expect(throttle.delayFor(keys)).toBe(2000);
    // Another account from the same address is slowed too.
    expect(throttle.delayFor(['email:other@b.c', 'ip:1.2.3.4'])).toBe(2000);
    now = 61_000;
    expect(throttle.delayFor(keys)).toBe(0);
  });

  it('forgets failures after a success', () => {
    const throttle = new SignInThrottle(1);
    throttle.recordFailure(['k']);
    throttle.recordFailure(['k']);
    expect(throttle.delayFor(['k'])).toBeGreaterThan(0);
    throttle.recordSuccess(['k']);
    expect(throttle.delayFor(['k'])).toBe(0);
  });
});
