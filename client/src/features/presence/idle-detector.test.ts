import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_IDLE_TIMEOUT_MS, IdleDetector, idleCheck, idleTimeoutFor } from './idle-detector';

describe('idleTimeoutFor', () => {
  it('follows the tier: 1, 2 or 3 minutes, unknown is 1', () => {
    expect(idleTimeoutFor('free')).toBe(60_000);
    expect(idleTimeoutFor('member')).toBe(120_000);
    expect(idleTimeoutFor('admin')).toBe(180_000);
    expect(idleTimeoutFor('superadmin')).toBe(180_000);
    expect(idleTimeoutFor(null)).toBe(60_000);
    expect(idleTimeoutFor(undefined)).toBe(60_000);
    expect(DEFAULT_IDLE_TIMEOUT_MS).toBe(180_000);
  });
});

describe('idleCheck', () => {
  it('is idle from the timeout on, and says how long to wait before', () => {
    expect(idleCheck(1000, 0, 60_000)).toEqual({ idle: false, waitMs: 59_000 });
    expect(idleCheck(60_000, 0, 60_000)).toEqual({ idle: true, waitMs: 0 });
  });
});

describe('IdleDetector', () => {
  let changes: boolean[];
  let detector: IdleDetector;
  beforeEach(() => {
    vi.useFakeTimers();
    changes = [];
    detector = new IdleDetector(60_000, (idle) => changes.push(idle));
  });
  afterEach(() => {
    detector.stop();
    vi.useRealTimers();
  });

  it('goes idle after the timeout without input', () => {
    vi.advanceTimersByTime(59_999);
    expect(changes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(changes).toEqual([true]);
  });

  it('input pushes idle back and ends it', () => {
    vi.advanceTimersByTime(50_000);
    detector.input();
    vi.advanceTimersByTime(50_000);
    expect(changes).toEqual([]);
    vi.advanceTimersByTime(10_000);
    expect(changes).toEqual([true]);
    detector.input();
    expect(changes).toEqual([true, false]);
    vi.advanceTimersByTime(60_000);
    expect(changes).toEqual([true, false, true]);
  });

  it('is idle at once when hidden and active when shown again', () => {
    detector.visibility(true);
    expect(changes).toEqual([true]);
    detector.input();
    expect(changes).toEqual([true]);
    detector.visibility(false);
    expect(changes).toEqual([true, false]);
    vi.advanceTimersByTime(60_000);
    expect(changes).toEqual([true, false, true]);
  });

  it('reports nothing after stop, whatever happens', () => {
    detector.stop();
    detector.input();
    detector.visibility(true);
    vi.advanceTimersByTime(600_000);
    expect(changes).toEqual([]);
  });
});
