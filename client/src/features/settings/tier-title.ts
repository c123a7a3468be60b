import type { SubscriptionTier } from '../../../../protocol/user';

/** Spec §2: the tier card's title per tier. */
export const TIER_TITLES: Record<SubscriptionTier, string> = {
  superadmin: 'Super Admin',
  admin: 'Admin Subscription',
  member: 'Member Subscription',
  free: 'Free Tier',
};

/** Short tier names for badges and selectors. */
export const TIER_NAMES: Record<SubscriptionTier, string> = {
  superadmin: 'Super Admin',
  admin: 'Admin',
  member: 'Member',
  free: 'Free',
};
