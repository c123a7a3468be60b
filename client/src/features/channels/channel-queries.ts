import { API_PATHS } from '../../../../protocol/api-paths';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { blockedUsersResponseSchema } from '../../../../protocol/blocks';
import {
  channelMembersResponseSchema,
  channelsResponseSchema,
} from '../../../../protocol/channels';
import { contactsResponseSchema } from '../../../../protocol/contacts';
import { conversationsResponseSchema } from '../../../../protocol/conversations';
import { usersResponseSchema } from '../../../../protocol/users';
import { parsedQuery } from '../../lib/query-client';

/** `GET /api/muted-users/{channelId}` as key parts (spec §7: the parts joined by '/'). */
const MUTED_USERS_BASE = API_PATHS.mutedUsers.replace('/:channelId', '');

/** Query keys of channel data; the default query function GETs the parts joined by '/'. */
export const ALL_CHANNELS_KEY = [API_PATHS.channels] as const;
export const userChannelsKey = (userId: string) => [API_PATHS.users, userId, 'channels'] as const;
export const channelMembersKey = (channelId: number) =>
  [API_PATHS.channels, channelId, 'members'] as const;
export const mutedUsersKey = (channelId: number) => [MUTED_USERS_BASE, channelId] as const;
export const USERS_KEY = [API_PATHS.users] as const;
export const CONTACTS_KEY = [API_PATHS.contacts] as const;
export const BLOCKED_USERS_KEY = [API_PATHS.blockedUsers] as const;
/** Direct conversations: channels of two, kept out of the channel lists (decision 039). */
export const CONVERSATIONS_KEY = [API_PATHS.conversations] as const;

/** Spec §7/§9: channel lists, members and contacts are polled this often. */
export const CHANNEL_POLL_MS = 5000;

/** Spec §8: the texts these queries raise (and the screens show) when they fail. */
export const FETCH_ERRORS = {
  userChannels: 'Failed to fetch user channels',
  allChannels: 'Failed to fetch all channels',
  members: 'Failed to fetch members',
  invite: 'Failed to fetch invite',
} as const;

/** Each query with the schema its answer is checked against, for hooks and runtimes alike. */
export const userChannelsQuery = (userId: string) =>
  queryOptions({
    queryKey: userChannelsKey(userId),
    queryFn: parsedQuery(channelsResponseSchema, FETCH_ERRORS.userChannels),
  });
export const allChannelsQuery = queryOptions({
  queryKey: ALL_CHANNELS_KEY,
  queryFn: parsedQuery(channelsResponseSchema, FETCH_ERRORS.allChannels),
});
export const channelMembersQuery = (channelId: number) =>
  queryOptions({
    queryKey: channelMembersKey(channelId),
    queryFn: parsedQuery(channelMembersResponseSchema, FETCH_ERRORS.members),
  });
export const usersQuery = queryOptions({
  queryKey: USERS_KEY,
  queryFn: parsedQuery(usersResponseSchema),
});
export const contactsQuery = queryOptions({
  queryKey: CONTACTS_KEY,
  queryFn: parsedQuery(contactsResponseSchema),
});
export const conversationsQuery = queryOptions({
  queryKey: CONVERSATIONS_KEY,
  queryFn: parsedQuery(conversationsResponseSchema),
});
export const blockedUsersQuery = queryOptions({
  queryKey: BLOCKED_USERS_KEY,
  queryFn: parsedQuery(blockedUsersResponseSchema),
});

const isUserChannelsKey = (key: readonly unknown[]) =>
  key[0] === API_PATHS.users && key.length === 3 && key[2] === 'channels';

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
      ? queryClient.invalidateQueries({ queryKey: [API_PATHS.channels] })
      : queryClient.invalidateQueries({ queryKey: channelMembersKey(channelId) }),
    channelId === undefined
      ? queryClient.invalidateQueries({ queryKey: [MUTED_USERS_BASE] })
      : queryClient.invalidateQueries({ queryKey: mutedUsersKey(channelId) }),
  ]);
}
