import { useQuery } from '@tanstack/react-query';
import { useAuth } from '../auth/useAuth';
import { CHANNEL_POLL_MS, userChannelsQuery } from './channel-queries';

/**
 * The signed-in user's channels (`GET /api/users/{me}/channels`), polled every 5 s while signed in.
 * A failure raises "Failed to fetch user channels" (spec §8).
 */
export function useUserChannels() {
  const { user } = useAuth();
  return useQuery({
    ...userChannelsQuery(user?.id ?? ''),
    enabled: user !== null,
    refetchInterval: CHANNEL_POLL_MS,
  });
}
