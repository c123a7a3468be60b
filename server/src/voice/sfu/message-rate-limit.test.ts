import { describe, expect, it } from 'vitest';
import { MessageRateLimit } from './message-rate-limit.js';

describe('MessageRateLimit', () => {
  it('allows a burst, then refills at the steady rate', () => {
    const limit = new MessageRateLimit(3, 10);
    const t = Date.now();
    expect([limit.allow(t), limit.allow(t), limit.allow(t), limit.allow(t)]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(limit.allow(t + 100)).toBe(true); // 10/s → one token per 100 ms
    expect(limit.allow(t + 100)).toBe(false);
  });
});
