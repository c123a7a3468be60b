import { describe, expect, it } from 'vitest';
import { PokeLimiter } from './poke-limiter.js';

describe('PokeLimiter', () => {
  const clock = () => {
    let time = 1_000_000;
    return { now: () => time, advance: (ms: number) => (time += ms) };
  };

  it('allows one poke per pair per interval', () => {
    const c = clock();
    const limiter = new PokeLimiter(10_000, c.now);
    expect(limiter.tryPoke('a', 'b')).toBe(true);
    expect(limiter.tryPoke('a', 'b')).toBe(false);
    c.advance(9_999);
    expect(limiter.tryPoke('a', 'b')).toBe(false);
    c.advance(1);
    expect(limiter.tryPoke('a', 'b')).toBe(true);
  });

  it('keeps pairs apart, in both directions', () => {
    const limiter = new PokeLimiter(10_000, clock().now);
    expect(limiter.tryPoke('a', 'b')).toBe(true);
    expect(limiter.tryPoke('b', 'a')).toBe(true);
    expect(limiter.tryPoke('a', 'c')).toBe(true);
  });

  it('forgets pairs once their interval has passed', () => {
    const c = clock();
    const limiter = new PokeLimiter(10_000, c.now);
    limiter.tryPoke('a', 'b');
    limiter.tryPoke('a', 'c');
    c.advance(10_000);
    limiter.tryPoke('x', 'y');
    expect(limiter.size).toBe(1);
  });
});
