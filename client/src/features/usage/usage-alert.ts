import {
  FREE_MONTHLY_MINUTES,
  OVERAGE_PRICE_PER_MINUTE,
  type Usage,
} from '../../../../protocol/usage';

export type UsageAlertTone = 'notice' | 'warning' | 'danger';

export type UsageAlert = {
  tone: UsageAlertTone;
  title: string;
  description: string;
  /** Offer to turn pay-as-you-go on from the banner. */
  offerPayAsYouGo: boolean;
  /** Offer to turn it off again (it is on, and the banner shows). */
  offerTurnOff: boolean;
};

const minutes = (n: number) => Math.round(n).toLocaleString('en-US');
const dollars = (n: number) => `$${n.toFixed(2)}`;

/** "1,234 of 10,000 free minutes used this month (12%)." */
function usedLine(usage: Usage): string {
  return `${minutes(usage.totalMonthlyMinutes)} of ${minutes(FREE_MONTHLY_MINUTES)} free minutes used this month (${Math.round(usage.usagePercentage)}%).`;
}

function overLimitAlert(usage: Usage): UsageAlert {
  const overage = `${minutes(usage.overageMinutes)} minutes over the free allowance, estimated cost ${dollars(usage.estimatedOverageCost)}.`;
  if (usage.payAsYouGoEnabled) {
    return {
      tone: 'warning',
      title: 'Free minutes used up - pay-as-you-go is on',
      description: `${usedLine(usage)} ${overage}`,
      offerPayAsYouGo: false,
      offerTurnOff: true,
    };
  }
  return {
    tone: 'danger',
    title: 'Free minutes used up',
    description: `${usedLine(usage)} Voice is paused until next month, or turn on pay-as-you-go at $${OVERAGE_PRICE_PER_MINUTE} per minute to keep talking.`,
    offerPayAsYouGo: true,
    offerTurnOff: false,
  };
}

/** The banner for a warning level (DESIGN §3: medium ≥ 50 %, high ≥ 80 %, critical ≥ 95 %), or null. */
export function usageAlert(usage: Usage): UsageAlert | null {
  if (usage.isOverLimit) return overLimitAlert(usage);
  const remaining = `${minutes(usage.freeMinutesRemaining)} free minutes left.`;
  const payAsYouGo = usage.payAsYouGoEnabled
    ? ' Pay-as-you-go is on, so voice keeps working past the allowance.'
    : '';
  switch (usage.warningLevel) {
    case 'low':
      return null;
    case 'medium':
      return {
        tone: 'notice',
        title: "You've used half of your free minutes",
        description: `${usedLine(usage)} ${remaining}`,
        offerPayAsYouGo: false,
        offerTurnOff: usage.payAsYouGoEnabled,
      };
    case 'high':
      return {
        tone: 'warning',
        title: 'Most of your free minutes are used',
        description: `${usedLine(usage)} ${remaining}${payAsYouGo}`,
        offerPayAsYouGo: !usage.payAsYouGoEnabled,
        offerTurnOff: usage.payAsYouGoEnabled,
      };
    case 'critical':
      return {
        tone: 'danger',
        title: 'Almost out of free minutes',
        description: `${usedLine(usage)} ${remaining}${payAsYouGo}`,
        offerPayAsYouGo: !usage.payAsYouGoEnabled,
        offerTurnOff: usage.payAsYouGoEnabled,
      };
  }
}
