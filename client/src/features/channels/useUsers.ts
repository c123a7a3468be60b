import { useQuery } from '@tanstack/react-query';
import { CHANNEL_POLL_MS, usersQuery } from './channel-queries';

/** Every user (`GET /api/users`), for contacts, add-member lists and user management. */
export function useUsers() {
  return useQuery({ ...usersQuery, refetchInterval: CHANNEL_POLL_MS });
}
