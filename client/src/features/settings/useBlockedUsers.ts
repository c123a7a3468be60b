import { useQuery } from '@tanstack/react-query';
import type { User } from '../../../../protocol/user';
import { BLOCKED_USERS_KEY } from '../channels/channel-queries';

/** `GET /api/blocked-users`: the people the signed-in user has blocked. */
export function useBlockedUsers() {
  return useQuery<User[]>({ queryKey: BLOCKED_USERS_KEY });
}
