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
  it('detects voice in a talk’s first packets, with nothing sent before them', () => {
    const detector = new SpeakingDetector({ holdMs: 100 });
    const clock = { t: 0 };
    expect(feed(detector, clock, 45, 30)).toEqual([true]);
    expect(detector.level).toBeGreaterThan(0.3);
    // The pause after it: DTX frames.
    expect(feed(detector, clock, 3, 20)).toEqual([false]);
  });

  it('learns a noisier floor (steady 35-byte frames) and detects voice above it', () => {
    const detector = new SpeakingDetector({ holdMs: 100 });
    const clock = { t: 0 };
    // Taken for speech at first, until the floor has learnt the noise (~15 s).
    expect(feed(detector, clock, 35, 1_000)).toEqual([true, false]);
    expect(feed(detector, clock, 83, 30)).toEqual([true]);
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
    feed(detector, clock, 3, 20);
    expect(feed(detector, clock, 200, 1)).toEqual([]);
    expect(feed(detector, clock, 3, 5)).toEqual([]);
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
    // Frames a zero floor would take for a voice (18 bytes and more).
    expect(feed(detector, clock, 25, 50)).toEqual([]);
  });
});
