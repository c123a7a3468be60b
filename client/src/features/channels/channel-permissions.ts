import type { Channel } from '../../../../protocol/channels';
import { isAdminTier, type User } from '../../../../protocol/user';

/** DESIGN §3: a channel's admin is its creator; a superadmin manages every channel. */
export function canManageChannel(
  channel: Pick<Channel, 'createdBy'> | undefined,
  user: Pick<User, 'id' | 'subscriptionTier'> | null,
): boolean {
  if (!user) return false;
  if (user.subscriptionTier === 'superadmin') return true;
  return isAdminTier(user.subscriptionTier) && channel?.createdBy === user.id;
}
