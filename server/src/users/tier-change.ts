import type { SubscriptionTier } from '../../../protocol/user.js';

type AssignableTier = Exclude<SubscriptionTier, 'superadmin'>;

/**
 * Spec §5: a tier change is ignored when the tier is the same or the target is a superadmin
 * (a superadmin can only be made by SUPERADMIN_EMAILS or by being the first user).
 */
export function tierAfterChange(
  current: SubscriptionTier,
  requested: AssignableTier,
): SubscriptionTier {
  if (current === 'superadmin') return current;
  return requested;
}
