import {
  FREE_MONTHLY_MINUTES,
  OVERAGE_PRICE_PER_MINUTE,
  type Usage,
  type WarningLevel,
} from '../../../protocol/usage.js';

/** DESIGN §3: low < 50 %, medium ≥ 50 %, high ≥ 80 %, critical ≥ 95 % of the free allowance. */
export function warningLevelFor(percentage: number): WarningLevel {
  if (percentage >= 95) return 'critical';
  if (percentage >= 80) return 'high';
  if (percentage >= 50) return 'medium';
  return 'low';
}

/** Every figure of GET /api/usage from the month's minutes. Costs are rounded to cents. */
export function usageFigures(totalMonthlyMinutes: number, payAsYouGoEnabled: boolean): Usage {
  const usagePercentage = Math.round((totalMonthlyMinutes / FREE_MONTHLY_MINUTES) * 10_000) / 100;
  const overageMinutes = Math.max(0, totalMonthlyMinutes - FREE_MONTHLY_MINUTES);
  return {
    totalMonthlyMinutes,
    usagePercentage,
    freeMinutesRemaining: Math.max(0, FREE_MONTHLY_MINUTES - totalMonthlyMinutes),
    warningLevel: warningLevelFor(usagePercentage),
    isOverLimit: totalMonthlyMinutes >= FREE_MONTHLY_MINUTES,
    overageMinutes,
    estimatedOverageCost: Math.round(overageMinutes * OVERAGE_PRICE_PER_MINUTE * 100) / 100,
    payAsYouGoEnabled,
  };
}

/** A session's participant minutes: started minutes count whole (rounded up). */
export function sessionMinutes(startedAt: Date, endedAt: Date): number {
  return Math.max(0, Math.ceil((endedAt.getTime() - startedAt.getTime()) / 60_000));
}

/** The UTC calendar month containing `at`: [start, end). */
export function utcMonth(at: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { start, end };
}

/** Voice is refused when the allowance is used up and pay-as-you-go is off. */
export function mayConnect(usage: Usage): boolean {
  return !usage.isOverLimit || usage.payAsYouGoEnabled;
}
