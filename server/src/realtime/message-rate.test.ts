import { describe, expect, it } from 'vitest';
import { MessageRate } from './message-rate.js';

describe('MessageRate', () => {
  it('allows a burst, refuses past it, and refills over time', () => {
    let now = 0;
    const rate = new MessageRate(10, 5, () => now);
    for (let i = 0; i < 5; i++) expect(rate.take()).toBe(true);
    expect(rate.take()).toBe(false);
    now = 100; // 0.1 s at 10/s = one token back
    expect(rate.take()).toBe(true);
    expect(rate.take()).toBe(false);
    now = 10_000;
    for (let i = 0; i < 5; i++) expect(rate.take()).toBe(true);
    expect(rate.take()).toBe(false);
  });
});
