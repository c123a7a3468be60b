import type { QueryClient } from '@tanstack/react-query';

/** Query keys of channel data; the default query function GETs the parts joined by '/'. */
export const ALL_CHANNELS_KEY = ['/api/channels'] as const;
export const userChannelsKey = (userId: string) => ['/api/users', userId, 'channels'] as const;
export const channelMembersKey = (channelId: number) =>
  ['/api/channels', channelId, 'members'] as const;
export const mutedUsersKey = (channelId: number) => ['/api/muted-users', channelId] as const;
export const USERS_KEY = ['/api/users'] as const;
export const CONTACTS_KEY = ['/api/contacts'] as const;
export const BLOCKED_USERS_KEY = ['/api/blocked-users'] as const;

/** Spec §7/§9: channel lists, members and contacts are polled this often. */
export const CHANNEL_POLL_MS = 5000;

const isUserChannelsKey = (key: readonly unknown[]) =>
  key[0] === '/api/users' && key.length === 3 && key[2] === 'channels';

/**
 * Refetches channel lists and member lists now instead of at the next poll. Called after channel
 * mutations here, and by the presence feature on `channel_changed` / `member_update` pushes.
 * With a channel id only that channel's members and mutes are refetched; without, every channel's.
 */
export async function invalidateChannelQueries(
  queryClient: QueryClient,
  channelId?: number,
): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: ALL_CHANNELS_KEY, exact: true }),
    queryClient.invalidateQueries({ predicate: (query) => isUserChannelsKey(query.queryKey) }),
    channelId === undefined
      ? queryClient.invalidateQueries({ queryKey: ['/api/channels'] })
      : queryClient.invalidateQueries({ queryKey: channelMembersKey(channelId) }),
    channelId === undefined
      ? queryClient.invalidateQueries({ queryKey: ['/api/muted-users'] })
      : queryClient.invalidateQueries({ queryKey: mutedUsersKey(channelId) }),
  ]);
}
