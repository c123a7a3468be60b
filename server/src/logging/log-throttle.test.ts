import { describe, expect, it } from 'vitest';
import { LogThrottle } from './log-throttle.js';

describe('LogThrottle', () => {
  it('logs a key once per interval and then says how many it left out', () => {
    let now = 0;
    const throttle = new LogThrottle(60_000, () => now);
    expect(throttle.take('socket-1')).toEqual({ log: true, suppressed: 0 });
    for (let i = 0; i < 19_999; i++) expect(throttle.take('socket-1').log).toBe(false);
    expect(throttle.take('socket-2').log).toBe(true);
    expect(throttle.pending('socket-1')).toBe(19_999);
    now = 60_000;
    expect(throttle.take('socket-1')).toEqual({ log: true, suppressed: 19_999 });
    expect(throttle.take('socket-1').log).toBe(false);
  });

  it('remembers a bounded number of keys', () => {
    const throttle = new LogThrottle(60_000, () => 0, 3);
    for (const key of ['a', 'b', 'c', 'd']) throttle.take(key);
    expect(throttle.take('a').log).toBe(true); // forgotten, so it logs again
    expect(throttle.take('d').log).toBe(false);
  });
});
