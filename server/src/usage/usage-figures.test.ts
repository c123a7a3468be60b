import { describe, expect, it } from 'vitest';
import {
  mayConnect,
  sessionMinutes,
  usageFigures,
  utcMonth,
  warningLevelFor,
} from './usage-figures.js';

describe('usage figures', () => {
  it('reports an unused month', () => {
    expect(usageFigures(0, false)).toEqual({
      totalMonthlyMinutes: 0,
      usagePercentage: 0,
      freeMinutesRemaining: 10_000,
      warningLevel: 'low',
      isOverLimit: false,
      overageMinutes: 0,
      estimatedOverageCost: 0,
      payAsYouGoEnabled: false,
    });
  });

  it('computes percentage and remaining minutes', () => {
    const usage = usageFigures(2_345, true);
    expect(usage.usagePercentage).toBe(23.45);
    expect(usage.freeMinutesRemaining).toBe(7_655);
    expect(usage.payAsYouGoEnabled).toBe(true);
  });

  it.each([
    [0, 'low'],
    [49.99, 'low'],
    [50, 'medium'],
    [79.99, 'medium'],
    [80, 'high'],
    [94.99, 'high'],
    [95, 'critical'],
    [250, 'critical'],
  ] as const)('%s %% is %s', (percentage, level) => {
    expect(warningLevelFor(percentage)).toBe(level);
  });

  it('puts the level thresholds on minutes too', () => {
    expect(usageFigures(4_999, false).warningLevel).toBe('low');
    expect(usageFigures(5_000, false).warningLevel).toBe('medium');
    expect(usageFigures(8_000, false).warningLevel).toBe('high');
    expect(usageFigures(9_500, false).warningLevel).toBe('critical');
  });

  it('is over the limit from the last free minute on, and bills the overage to the cent', () => {
    expect(usageFigures(9_999, false).isOverLimit).toBe(false);
    const atLimit = usageFigures(10_000, false);
    expect(atLimit).toMatchObject({
      isOverLimit: true,
      freeMinutesRemaining: 0,
      overageMinutes: 0,
      estimatedOverageCost: 0,
    });
    expect(usageFigures(10_001, false).estimatedOverageCost).toBe(0.01); // 0.006 rounds up to a cent
    expect(usageFigures(10_250, false)).toMatchObject({
      overageMinutes: 250,
      estimatedOverageCost: 1.5,
    });
    expect(usageFigures(11_234, false).estimatedOverageCost).toBe(7.4); // 7.404
    expect(usageFigures(10_834, false).estimatedOverageCost).toBe(5.0); // 5.004
  });

  it('lets over-limit users connect only with pay-as-you-go', () => {
    expect(mayConnect(usageFigures(9_000, false))).toBe(true);
    expect(mayConnect(usageFigures(10_000, false))).toBe(false);
    expect(mayConnect(usageFigures(10_000, true))).toBe(true);
  });

  it('rounds a session up to whole minutes', () => {
    const start = new Date('2026-01-01T10:00:00Z');
    expect(sessionMinutes(start, new Date('2026-01-01T10:00:00Z'))).toBe(0);
    expect(sessionMinutes(start, new Date('2026-01-01T10:00:01Z'))).toBe(1);
    expect(sessionMinutes(start, new Date('2026-01-01T10:01:00Z'))).toBe(1);
    expect(sessionMinutes(start, new Date('2026-01-01T10:01:00.001Z'))).toBe(2);
  });

  it('finds UTC month boundaries whatever the local time zone', () => {
    const { start, end } = utcMonth(new Date('2026-12-31T23:59:59.999Z'));
    expect(start.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(end.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(utcMonth(new Date('2027-01-01T00:00:00.000Z')).start.toISOString()).toBe(
      '2027-01-01T00:00:00.000Z',
    );
  });
});
