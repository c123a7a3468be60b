import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket.js';

describe('TokenBucket', () => {
  it('allows a burst, refuses past it, and refills at the steady rate', () => {
    let now = 0;
    const bucket = new TokenBucket({ perSecond: 10, burst: 5 }, () => now);
    for (let i = 0; i < 5; i++) expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
    now = 100; // 0.1 s at 10/s = one token back
    expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
    now = 10_000; // refills to the burst, never beyond
    for (let i = 0; i < 5; i++) expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
  });
});
