import { useQuery } from '@tanstack/react-query';
import type { User } from '../../../../protocol/user';
import { useAuth } from '../auth/useAuth';
import { CHANNEL_POLL_MS, CONTACTS_KEY } from '../channels/channel-queries';

/** The user's contacts (`GET /api/contacts`), polled every 5 s while signed in (spec §7). */
export function useContacts() {
  const { user } = useAuth();
  return useQuery<User[]>({
    queryKey: CONTACTS_KEY,
    enabled: user !== null,
    refetchInterval: CHANNEL_POLL_MS,
  });
}
