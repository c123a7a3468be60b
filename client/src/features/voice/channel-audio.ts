import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import { mutedUsersResponseSchema, type MutedUsersResponse } from '../../../../protocol/channels';
import { blockedUsersQuery, CHANNEL_POLL_MS, mutedUsersKey } from '../channels/channel-queries';
import type { PresenceStore } from '../presence/presence-store';
import type { audioPolicyStore } from './audio-policy-store';
import { watchRemoteAudio } from './audio-policy';
import { voicePreferencesQuery } from '../voice-preferences/voice-preferences-query';
import { voiceAudioContext } from './audio-context';
import { WebAudioOutput, type RemoteAudioOutput } from './remote-audio-gain';

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
 * `#remote-audio` as elements come and go; and how loud each member plays. Returns stop.
 */
export function startChannelAudio(deps: {
  queryClient: QueryClient;
  presence: PresenceStore;
  policy: AudioPolicyStore;
  selfUserId: string;
  document?: Document;
  /** Where each member's gain is applied; Web Audio on the voice AudioContext unless given. */
  output?: RemoteAudioOutput;
}): () => void {
  const { queryClient, presence, policy } = deps;
  policy.setSelfUserId(deps.selfUserId);
  const output = deps.output ?? new WebAudioOutput(voiceAudioContext);
  const watcher = watchRemoteAudio(policy.getPolicy, deps.document, output);
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

  // Per-member volumes: the member cards change this cache as the slider moves.
  const preferences = new QueryObserver(queryClient, voicePreferencesQuery);
  const applyVolumes = () =>
    policy.setMemberVolumes(preferences.getCurrentResult().data?.memberVolumes ?? {});
  const offPreferences = preferences.subscribe(applyVolumes);
  applyVolumes();

  return () => {
    offPreferences();
    offChannel();
    offMuted();
    offBlocked();
    offPolicy();
    watcher.stop();
    policy.setMutedUserIds([]);
    policy.setBlockedUserIds([]);
    policy.setMemberVolumes({});
    policy.setChannelMuted(false);
  };
}
