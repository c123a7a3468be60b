import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { API_PATHS } from '../../../../protocol/api-paths';
import { channelActivityResponseSchema, type ChannelActivity } from '../../../../protocol/channels';
import { parsedQuery } from '../../lib/query-client';
import { useAuth } from '../auth/useAuth';
import { CHANNEL_POLL_MS } from './channel-queries';

export const CHANNEL_ACTIVITY_KEY = [API_PATHS.channelActivity] as const;

/** While the Channels menu is closed its count of missed transmissions is refreshed this often. */
export const CLOSED_MENU_POLL_MS = 15_000;

/**
 * `GET /api/channels/activity`: "N missed" and how many others are there, per channel of mine,
 * by channel id. Polled as the channel lists are while the menu is open, less often otherwise
 * (only the Channels button's count needs it then).
 */
export function useChannelActivity(menuOpen: boolean): ReadonlyMap<number, ChannelActivity> {
  const { user } = useAuth();
  const { data, refetch } = useQuery({
    queryKey: CHANNEL_ACTIVITY_KEY,
    queryFn: parsedQuery(channelActivityResponseSchema),
    enabled: user !== null,
    refetchInterval: menuOpen ? CHANNEL_POLL_MS : CLOSED_MENU_POLL_MS,
  });
  // Opened: fresh numbers now, not at the next slow poll.
  useEffect(() => {
    if (menuOpen && user !== null) void refetch();
  }, [menuOpen, user, refetch]);
  return new Map((data ?? []).map((activity) => [activity.channelId, activity]));
}

/** Transmissions missed in my channels other than the one on screen (whose bar shows its own). */
export function missedElsewhere(
  activity: ReadonlyMap<number, ChannelActivity>,
  currentChannelId: number | null,
): number {
  let missed = 0;
  for (const [channelId, { missed: n }] of activity)
    if (channelId !== currentChannelId) missed += n;
  return missed;
}
