import type { User } from '../../../protocol/user.js';
import type { SessionUser } from './session-store.js';

/** The public shape of a user (spec §3); never leaks issuer, subject or billing internals. */
export function toUserView(user: SessionUser): User {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    profileImageUrl: user.profileImageUrl,
    subscriptionTier: user.subscriptionTier,
  };
}
