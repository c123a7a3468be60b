import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HoldGesture, RELEASE_HOLD_MS, loadTalkMode } from './talk-mode';

describe('HoldGesture', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('starts at once and stops 300 ms after release', () => {
    const changes: boolean[] = [];
    const hold = new HoldGesture((h) => changes.push(h));
    hold.press();
    expect(changes).toEqual([true]);
    hold.release();
    vi.advanceTimersByTime(RELEASE_HOLD_MS - 1);
    expect(changes).toEqual([true]);
    vi.advanceTimersByTime(1);
    expect(changes).toEqual([true, false]);
  });

  it('a press within the release hold keeps talking without a gap', () => {
    const changes: boolean[] = [];
    const hold = new HoldGesture((h) => changes.push(h));
    hold.press();
    hold.release();
    vi.advanceTimersByTime(200);
    hold.press();
    vi.advanceTimersByTime(1000);
    expect(changes).toEqual([true]);
  });

  it('ignores key repeat and stray releases', () => {
    const changes: boolean[] = [];
    const hold = new HoldGesture((h) => changes.push(h));
    hold.release();
    hold.press();
    hold.press();
    expect(changes).toEqual([true]);
  });
});

describe('loadTalkMode', () => {
  it('defaults to the spec toggle', () => {
    expect(loadTalkMode({ getItem: () => null })).toBe('toggle');
    expect(loadTalkMode({ getItem: () => 'hold' })).toBe('hold');
    expect(loadTalkMode({ getItem: () => 'nonsense' })).toBe('toggle');
  });
});
