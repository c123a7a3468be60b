import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SilenceSweep } from './silence-sweep.js';

describe('SilenceSweep', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs one timer only while some room has a speaker, and asks only those rooms', () => {
    const sweep = new SilenceSweep(300);
    expect(vi.getTimerCount()).toBe(0);

    let annSpeaks = true;
    const asked: string[] = [];
    const annRoom = { sweepSilence: () => (asked.push('ann'), annSpeaks) };
    const benRoom = { sweepSilence: () => (asked.push('ben'), false) };
    sweep.watch(annRoom);
    sweep.watch(benRoom);
    expect(vi.getTimerCount()).toBe(1);

    vi.advanceTimersByTime(300);
    expect(asked).toEqual(['ann', 'ben']);
    expect(sweep.size).toBe(1); // nobody speaks in Ben's room any more

    vi.advanceTimersByTime(300);
    expect(asked).toEqual(['ann', 'ben', 'ann']);

    annSpeaks = false;
    vi.advanceTimersByTime(300);
    expect(sweep.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('forgets a closed room at once', () => {
    const sweep = new SilenceSweep(300);
    const room = { sweepSilence: () => true };
    sweep.watch(room);
    sweep.forget(room);
    expect(vi.getTimerCount()).toBe(0);
  });
});
