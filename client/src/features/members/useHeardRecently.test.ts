import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Lingering } from './useHeardRecently';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('Lingering', () => {
  it('keeps a voice that just stopped for the hold time, then lets it go', () => {
    const lingering = new Lingering(2500);
    lingering.update(new Set(['ava']));
    expect([...lingering.snapshot()]).toEqual([]);
    lingering.update(new Set());
    expect([...lingering.snapshot()]).toEqual(['ava']);
    vi.advanceTimersByTime(2499);
    expect([...lingering.snapshot()]).toEqual(['ava']);
    vi.advanceTimersByTime(1);
    expect([...lingering.snapshot()]).toEqual([]);
  });

  it('a voice heard again within the hold does not leave at the first timer', () => {
    const lingering = new Lingering(2500);
    lingering.update(new Set(['ava']));
    lingering.update(new Set());
    vi.advanceTimersByTime(2000);
    lingering.update(new Set(['ava']));
    expect([...lingering.snapshot()]).toEqual([]);
    lingering.update(new Set());
    vi.advanceTimersByTime(2000);
    expect([...lingering.snapshot()]).toEqual(['ava']);
    lingering.stop();
  });
});
