import { useQuery } from '@tanstack/react-query';
import type { User } from '../../../../protocol/user';
import { CHANNEL_POLL_MS, USERS_KEY } from './channel-queries';

/** Every user (`GET /api/users`), for contacts, add-member lists and user management. */
export function useUsers() {
  return useQuery<User[]>({ queryKey: USERS_KEY, refetchInterval: CHANNEL_POLL_MS });
}
