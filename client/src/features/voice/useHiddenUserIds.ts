import { useQuery } from '@tanstack/react-query';
import { mutedUsersResponseSchema, type MutedUsersResponse } from '../../../../protocol/channels';
import type { User } from '../../../../protocol/user';
import { BLOCKED_USERS_KEY, CHANNEL_POLL_MS, mutedUsersKey } from '../channels/channel-queries';

/** Spec §7: GET /api/muted-users/{channelId}; a non-OK answer throws "Failed to fetch muted users". */
export async function fetchMutedUsers(channelId: number): Promise<MutedUsersResponse> {
  const res = await fetch(`/api/muted-users/${channelId}`, { credentials: 'include' });
  if (!res.ok) throw new Error('Failed to fetch muted users');
  // Cached as the response itself, the shape the default query function would store under this key.
  return mutedUsersResponseSchema.parse(await res.json());
}

/**
 * The user ids whose audio must stay silent in `channelId`: admin-muted members (polled like the
 * member list, and refetched at once on channel pushes) and the users the viewer has blocked.
 */
export function useHiddenUserIds(channelId: number | null): string[] {
  const muted = useQuery({
    queryKey: mutedUsersKey(channelId ?? 0),
    queryFn: () => fetchMutedUsers(channelId ?? 0),
    enabled: channelId !== null,
    refetchInterval: CHANNEL_POLL_MS,
  });
  const blocked = useQuery<User[]>({ queryKey: BLOCKED_USERS_KEY });
  return [...(muted.data?.mutedUsers ?? []), ...(blocked.data ?? []).map((user) => user.id)];
}
