import type { SubscriptionTier } from '../../../../protocol/user';

/**
 * The paid plans (spec §2 "Upgrade screen", §9). The spec shows two price sets; Chirp uses the one
 * the upgrade page and the settings prompt show — see docs/decisions/008-plan-prices.md.
 */
export interface Plan {
  tier: 'member' | 'admin';
  name: string;
  pricePerMonth: number;
  recommended: boolean;
  features: string[];
}

export const FREE_TRIAL_DAYS = 7;

/** What every account has without paying (spec §6 "Any signed-in user", §9 free allowance). */
export const FREE_PLAN = {
  name: 'Free',
  features: [
    'Channels you are invited to',
    'One-to-one calls and pokes',
    'Contacts, invite links and blocking',
    '10,000 participant minutes a month',
  ],
} as const;

/** Where the signed-in user stands with a plan card: it is theirs, already included, or for sale. */
export type PlanStatus = 'current' | 'included' | 'available';

export function planStatus(plan: Plan['tier'], tier: SubscriptionTier | undefined): PlanStatus {
  if (tier === plan) return 'current';
  if (tier === 'superadmin' || (tier === 'admin' && plan === 'member')) return 'included';
  return 'available';
}

export const PLANS: Plan[] = [
  {
    tier: 'member',
    name: 'Member',
    pricePerMonth: 1,
    recommended: false,
    // Calls and pokes are in Free already (spec §6: any signed-in user), so they are not sold here.
    features: ['Everything in Free', 'Join any channel on the server', 'Longer idle timeout (2 minutes)'],
  },
  {
    tier: 'admin',
    name: 'Admin',
    pricePerMonth: 5,
    recommended: true,
    features: [
      'Everything in Member',
      'Create channels and invite people',
      'Add, remove and mute members',
      'Longest idle timeout (3 minutes)',
    ],
  },
];

export const FAQ: { question: string; answer: string }[] = [
  {
    question: 'Can I cancel anytime?',
    answer: 'Yes. Your plan stays active until the end of the period you paid for, then returns to Free.',
  },
  {
    question: 'What happens after the free trial?',
    answer: `After ${FREE_TRIAL_DAYS} days the plan renews monthly unless you cancel before the trial ends.`,
  },
  {
    question: 'What are participant minutes?',
    answer:
      'Each minute one person is connected to voice counts as one participant minute. Every account gets 10,000 free minutes a month; beyond that, pay-as-you-go costs $0.006 a minute.',
  },
];

const priceOf = (tier: Plan['tier']) => PLANS.find((plan) => plan.tier === tier)?.pricePerMonth ?? 0;

/** One line for upgrade prompts elsewhere (settings), from the same prices as the upgrade screen. */
export const PRICE_SUMMARY = `Member $${priceOf('member')}/month · Admin $${priceOf('admin')}/month · ${FREE_TRIAL_DAYS}-day free trial`;
export const ADMIN_UPGRADE_PROMPT = `Upgrade to Admin ($${priceOf('admin')}/month, ${FREE_TRIAL_DAYS}-day free trial) to create your own channels. Member is $${priceOf('member')}/month.`;
