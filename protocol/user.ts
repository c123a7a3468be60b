import { z } from 'zod';

export const SUBSCRIPTION_TIERS = ['free', 'member', 'admin', 'superadmin'] as const;
export const subscriptionTierSchema = z.enum(SUBSCRIPTION_TIERS);
export type SubscriptionTier = z.infer<typeof subscriptionTierSchema>;

/** Tiers a superadmin may assign (spec §4 "Other", §5): never superadmin itself. */
export const assignableTierSchema = z.enum(['free', 'member', 'admin']);

export const userSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  subscriptionTier: subscriptionTierSchema,
});
export type User = z.infer<typeof userSchema>;

type NamedUser = Pick<User, 'email' | 'firstName' | 'lastName' | 'subscriptionTier'>;

/**
 * Spec §3: first and last name if both exist; else the tier title for admins; else the email. When
 * the e-mail is hidden from the viewer (decision record 014), the one name there is.
 */
export function displayName(user: NamedUser): string {
  if (user.firstName && user.lastName) return `${user.firstName} ${user.lastName}`;
  if (user.subscriptionTier === 'superadmin') return 'Super Admin User';
  if (user.subscriptionTier === 'admin') return 'Admin User';
  return user.email ?? user.firstName ?? user.lastName ?? '';
}

export function isAdminTier(tier: SubscriptionTier): boolean {
  return tier === 'admin' || tier === 'superadmin';
}
