import { describe, expect, it } from 'vitest';
import { formatWhen } from './transmission-texts';

describe('formatWhen', () => {
  // Local times, so the test holds in every time zone.
  const now = new Date(2026, 10, 27, 9, 30, 0);
  const at = (...parts: [number, number, number, number, number, number]) =>
    new Date(...parts).toISOString();

  it('says Today or Yesterday with the time, to the second', () => {
    expect(formatWhen(at(2026, 10, 27, 17, 10, 41), now, 'en-US')).toBe('Today, 5:10:41 PM');
    expect(formatWhen(at(2026, 10, 27, 0, 0, 5), now, 'en-US')).toBe('Today, 12:00:05 AM');
    expect(formatWhen(at(2026, 10, 26, 23, 59, 59), now, 'en-US')).toBe('Yesterday, 11:59:59 PM');
  });

  it('gives the date further back, and the year when it is another one', () => {
    expect(formatWhen(at(2026, 10, 24, 20, 0, 0), now, 'en-US')).toBe('Nov 24, 8:00:00 PM');
    expect(formatWhen(at(2025, 11, 31, 8, 0, 0), now, 'en-US')).toBe('Dec 31, 2025, 8:00:00 AM');
  });

  it("follows the reader's locale", () => {
    expect(formatWhen(at(2026, 10, 24, 20, 0, 0), now, 'de-DE')).toBe('24. Nov., 20:00:00');
  });
});
