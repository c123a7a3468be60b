import { describe, expect, it } from 'vitest';
import type { Usage } from '../../../../protocol/usage';
import { markAutoEnabled, shouldAutoEnable, wasAutoEnabled } from './auto-pay-as-you-go';

const usage = (warningLevel: Usage['warningLevel'], payAsYouGoEnabled = false): Usage => ({
  totalMonthlyMinutes: 8000,
  usagePercentage: 80,
  freeMinutesRemaining: 2000,
  warningLevel,
  isOverLimit: false,
  overageMinutes: 0,
  estimatedOverageCost: 0,
  payAsYouGoEnabled,
});

describe('automatic pay-as-you-go', () => {
  it('fires at high, while off, and only once', () => {
    expect(shouldAutoEnable(usage('high'), false)).toBe(true);
    expect(shouldAutoEnable(usage('high'), true)).toBe(false);
    expect(shouldAutoEnable(usage('high', true), false)).toBe(false);
    expect(shouldAutoEnable(usage('medium'), false)).toBe(false);
    expect(shouldAutoEnable(usage('critical'), false)).toBe(false);
  });

  it('remembers per user', () => {
    localStorage.clear();
    expect(wasAutoEnabled(localStorage, 'a')).toBe(false);
    markAutoEnabled(localStorage, 'a');
    expect(wasAutoEnabled(localStorage, 'a')).toBe(true);
    expect(wasAutoEnabled(localStorage, 'b')).toBe(false);
    expect(wasAutoEnabled(undefined, 'a')).toBe(false);
  });
});
