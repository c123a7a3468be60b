import { describe, expect, it } from 'vitest';
import type { Usage } from '../../../../protocol/usage';
import { usageAlert } from './usage-alert';

const usage = (patch: Partial<Usage>): Usage => ({
  totalMonthlyMinutes: 1000,
  usagePercentage: 10,
  freeMinutesRemaining: 9000,
  warningLevel: 'low',
  isOverLimit: false,
  overageMinutes: 0,
  estimatedOverageCost: 0,
  payAsYouGoEnabled: false,
  ...patch,
});

describe('usageAlert', () => {
  it('shows nothing at the low level', () => {
    expect(usageAlert(usage({}))).toBeNull();
  });

  it('medium: minutes used and remaining, no offer', () => {
    const alert = usageAlert(
      usage({
        warningLevel: 'medium',
        totalMonthlyMinutes: 5200,
        usagePercentage: 52,
        freeMinutesRemaining: 4800,
      }),
    );
    expect(alert).toMatchObject({ tone: 'notice', offerPayAsYouGo: false });
    expect(alert?.description).toBe(
      '5,200 of 10,000 free minutes used this month (52%). 4,800 free minutes left.',
    );
  });

  it('high and critical offer pay-as-you-go only while it is off', () => {
    expect(usageAlert(usage({ warningLevel: 'high' }))).toMatchObject({
      tone: 'warning',
      offerPayAsYouGo: true,
    });
    expect(usageAlert(usage({ warningLevel: 'critical', payAsYouGoEnabled: true }))).toMatchObject({
      tone: 'danger',
      offerPayAsYouGo: false,
      offerTurnOff: true,
    });
  });

  it('offers to turn pay-as-you-go off wherever the banner shows it on', () => {
    expect(usageAlert(usage({ warningLevel: 'high' }))?.offerTurnOff).toBe(false);
    expect(
      usageAlert(usage({ warningLevel: 'medium', payAsYouGoEnabled: true }))?.offerTurnOff,
    ).toBe(true);
    expect(
      usageAlert(usage({ warningLevel: 'critical', isOverLimit: true, payAsYouGoEnabled: true }))
        ?.offerTurnOff,
    ).toBe(true);
  });

  it('over the limit without pay-as-you-go: voice paused, offer to enable', () => {
    const alert = usageAlert(
      usage({
        warningLevel: 'critical',
        isOverLimit: true,
        totalMonthlyMinutes: 10_050,
        usagePercentage: 100.5,
        freeMinutesRemaining: 0,
        overageMinutes: 50,
        estimatedOverageCost: 0.3,
      }),
    );
    expect(alert).toMatchObject({
      tone: 'danger',
      title: 'Free minutes used up',
      offerPayAsYouGo: true,
    });
    expect(alert?.description).toContain('$0.006 per minute');
  });

  it('over the limit with pay-as-you-go: overage minutes and cost', () => {
    const alert = usageAlert(
      usage({
        warningLevel: 'critical',
        isOverLimit: true,
        totalMonthlyMinutes: 10_500,
        usagePercentage: 105,
        overageMinutes: 500,
        estimatedOverageCost: 3,
        payAsYouGoEnabled: true,
      }),
    );
    expect(alert?.offerPayAsYouGo).toBe(false);
    expect(alert?.description).toContain(
      '500 minutes over the free allowance, estimated cost $3.00.',
    );
  });
});
