import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  IDLE_WARNING_MS,
  IdleDetector,
  idleCheck,
  idleTimeoutFor,
} from './idle-detector';

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

describe('IdleDetector warning before idling', () => {
  let events: (string | number | null)[];
  let detector: IdleDetector;
  let start: number;
  beforeEach(() => {
    vi.useFakeTimers();
    events = [];
    start = Date.now();
    detector = new IdleDetector(60_000, (idle) => events.push(idle ? 'idle' : 'active'), {
      onWarning: (idleAt) => events.push(idleAt === null ? null : idleAt - start),
    });
  });
  afterEach(() => {
    detector.stop();
    vi.useRealTimers();
  });

  it('warns 10 s before the timeout, which stays the spec’s', () => {
    expect(IDLE_WARNING_MS).toBe(10_000);
    vi.advanceTimersByTime(49_999);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(1);
    // The warning names the moment idling starts: the full minute after the last input.
    expect(events).toEqual([60_000]);
    vi.advanceTimersByTime(9_999);
    expect(events).toEqual([60_000]);
    vi.advanceTimersByTime(1);
    expect(events).toEqual([60_000, null, 'idle']);
  });

  it('input during the warning withdraws it and starts the minute again', () => {
    vi.advanceTimersByTime(55_000);
    detector.input();
    expect(events).toEqual([50_000 + 10_000, null]);
    vi.advanceTimersByTime(49_999);
    expect(events).toEqual([60_000, null]);
    vi.advanceTimersByTime(1);
    expect(events).toEqual([60_000, null, 115_000]);
    vi.advanceTimersByTime(10_000);
    expect(events).toEqual([60_000, null, 115_000, null, 'idle']);
  });

  it('input long before the warning only moves it later', () => {
    vi.advanceTimersByTime(30_000);
    detector.input();
    vi.advanceTimersByTime(49_999);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(events).toEqual([90_000]);
  });

  it('a hidden page is idle at once, with no warning; input after idling warns again later', () => {
    vi.advanceTimersByTime(20_000);
    detector.visibility(true);
    expect(events).toEqual(['idle']);
    vi.advanceTimersByTime(120_000);
    expect(events).toEqual(['idle']);
    detector.visibility(false);
    expect(events).toEqual(['idle', 'active']);
    vi.advanceTimersByTime(50_000);
    expect(events).toEqual(['idle', 'active', 200_000]);
  });

  it('a hidden page during the warning withdraws it as idling starts', () => {
    vi.advanceTimersByTime(52_000);
    detector.visibility(true);
    expect(events).toEqual([60_000, null, 'idle']);
  });
});
