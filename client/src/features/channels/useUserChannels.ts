import { useQuery } from '@tanstack/react-query';
import type { Channel } from '../../../../protocol/channels';
import { useAuth } from '../auth/useAuth';
import { CHANNEL_POLL_MS, userChannelsKey } from './channel-queries';

/** The signed-in user's channels (`GET /api/users/{me}/channels`), polled every 5 s while signed in. */
export function useUserChannels() {
  const { user } = useAuth();
  const userId = user?.id ?? '';
  return useQuery<Channel[]>({
    queryKey: userChannelsKey(userId),
    enabled: user !== null,
    refetchInterval: CHANNEL_POLL_MS,
  });
}
