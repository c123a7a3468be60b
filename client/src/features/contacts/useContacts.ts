import { useQuery } from '@tanstack/react-query';
import { useAuth } from '../auth/useAuth';
import { CHANNEL_POLL_MS, contactsQuery } from '../channels/channel-queries';

/** The user's contacts (`GET /api/contacts`), polled every 5 s while signed in (spec §7). */
export function useContacts() {
  const { user } = useAuth();
  return useQuery({ ...contactsQuery, enabled: user !== null, refetchInterval: CHANNEL_POLL_MS });
}
