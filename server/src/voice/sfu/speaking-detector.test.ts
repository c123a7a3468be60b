import { describe, expect, it } from 'vitest';
import { SpeakingDetector } from './speaking-detector.js';

/** Feeds `count` packets of `bytes`, 20 ms apart; returns the reported changes. */
function feed(
  detector: SpeakingDetector,
  clock: { t: number },
  bytes: number,
  count: number,
): boolean[] {
  const changes: boolean[] = [];
  for (let i = 0; i < count; i++) {
    const change = detector.push(bytes, (clock.t += 20));
    if (change) changes.push(change.speaking);
  }
  return changes;
}

describe('SpeakingDetector', () => {
  it('learns a browser-like silence floor (35-byte frames) and detects voice above it', () => {
    const detector = new SpeakingDetector({ holdMs: 100 });
    const clock = { t: 0 };
    expect(feed(detector, clock, 35, 100)).toEqual([]);
    expect(feed(detector, clock, 83, 30)).toEqual([true]);
    expect(detector.level).toBeGreaterThan(0.4);
    expect(feed(detector, clock, 35, 50)).toEqual([false]);
  });

  it('works with a DTX-like floor of a few bytes', () => {
    const detector = new SpeakingDetector({ holdMs: 100 });
    const clock = { t: 0 };
    feed(detector, clock, 3, 20);
    expect(feed(detector, clock, 60, 20)).toEqual([true]);
  });

  it('ignores a single loud packet', () => {
    const detector = new SpeakingDetector();
    const clock = { t: 0 };
    feed(detector, clock, 35, 20);
    expect(feed(detector, clock, 200, 1)).toEqual([]);
    expect(feed(detector, clock, 35, 5)).toEqual([]);
    expect(detector.isSpeaking).toBe(false);
  });

  it('reports silence once when packets stop', () => {
    const detector = new SpeakingDetector({ holdMs: 0 });
    const clock = { t: 0 };
    feed(detector, clock, 3, 10);
    feed(detector, clock, 100, 20);
    expect(detector.isSpeaking).toBe(true);
    expect(detector.silence()).toEqual({ speaking: false, level: 0 });
    expect(detector.silence()).toBeUndefined();
  });
});

describe('SpeakingDetector before any packet', () => {
  it('a silence report before the first packet does not fake a zero floor', () => {
    const detector = new SpeakingDetector({ holdMs: 0 });
    expect(detector.silence()).toBeUndefined();
    const clock = { t: 0 };
    expect(feed(detector, clock, 35, 50)).toEqual([]);
  });
});
