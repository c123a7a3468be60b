import { useQuery } from '@tanstack/react-query';
import { blockedUsersQuery } from '../channels/channel-queries';

/** `GET /api/blocked-users`: the people the signed-in user has blocked. */
export function useBlockedUsers() {
  return useQuery(blockedUsersQuery);
}
