import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import { mutedUsersResponseSchema, type MutedUsersResponse } from '../../../../protocol/channels';
import { blockedUsersQuery, CHANNEL_POLL_MS, mutedUsersKey } from '../channels/channel-queries';
import type { PresenceStore } from '../presence/presence-store';
import type { audioPolicyStore } from './audio-policy-store';
import { watchRemoteAudio } from './audio-policy';

/** Spec §7: GET /api/muted-users/{channelId}; a non-OK answer throws "Failed to fetch muted users". */
export async function fetchMutedUsers(channelId: number): Promise<MutedUsersResponse> {
  const res = await fetch(apiPath(API_PATHS.mutedUsers, { channelId }), {
    credentials: 'include',
  });
  if (!res.ok) throw new Error('Failed to fetch muted users');
  // Cached as the response itself, the shape the default query function would store under this key.
  return mutedUsersResponseSchema.parse(await res.json());
}

type AudioPolicyStore = typeof audioPolicyStore;

/**
 * Who the channel's audio never plays (spec §6), kept live on every screen: admin-muted members of
 * the current channel (polled like the member list) and the users the viewer blocked, applied to
 * `#remote-audio` as elements come and go. Returns stop.
 */
export function startChannelAudio(deps: {
  queryClient: QueryClient;
  presence: PresenceStore;
  policy: AudioPolicyStore;
  selfUserId: string;
  document?: Document;
}): () => void {
  const { queryClient, presence, policy } = deps;
  policy.setSelfUserId(deps.selfUserId);
  const watcher = watchRemoteAudio(policy.getPolicy, deps.document);
  const offPolicy = policy.subscribe(watcher.reapply);

  const mutedOptions = (channelId: number | null) => ({
    queryKey: mutedUsersKey(channelId ?? 0),
    queryFn: () => fetchMutedUsers(channelId ?? 0),
    enabled: channelId !== null,
    refetchInterval: CHANNEL_POLL_MS,
  });
  let channelId = presence.state.channelId;
  const muted = new QueryObserver(queryClient, mutedOptions(channelId));
  const applyMuted = () =>
    policy.setMutedUserIds(
      channelId === null ? [] : (muted.getCurrentResult().data?.mutedUsers ?? []),
    );
  const offMuted = muted.subscribe(applyMuted);
  const offChannel = presence.subscribe(() => {
    if (presence.state.channelId === channelId) return;
    channelId = presence.state.channelId;
    muted.setOptions(mutedOptions(channelId));
    applyMuted();
  });
  applyMuted();

  const blocked = new QueryObserver(queryClient, blockedUsersQuery);
  const applyBlocked = () =>
    policy.setBlockedUserIds((blocked.getCurrentResult().data ?? []).map((user) => user.id));
  const offBlocked = blocked.subscribe(applyBlocked);
  applyBlocked();

  return () => {
    offChannel();
    offMuted();
    offBlocked();
    offPolicy();
    watcher.stop();
    policy.setMutedUserIds([]);
    policy.setBlockedUserIds([]);
    policy.setChannelMuted(false);
  };
}
