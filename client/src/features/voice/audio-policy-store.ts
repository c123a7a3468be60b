import { useSyncExternalStore } from 'react';
import type { AudioPolicy } from './audio-policy';

/**
 * The tab's one audio policy: the Mute Channel toggle, the ids never to be heard and the per-member
 * volumes. A module store
 * because the toggle, the muted-users query and the audio watcher live in different components.
 */
type PolicyState = {
  channelMuted: boolean;
  mutedUserIds: ReadonlySet<string>;
  blockedUserIds: ReadonlySet<string>;
  selfUserId: string | null;
  memberVolumes: Readonly<Record<string, number>>;
  sosUserIds: ReadonlySet<string>;
};

let state: PolicyState = {
  channelMuted: false,
  mutedUserIds: new Set(),
  blockedUserIds: new Set(),
  selfUserId: null,
  memberVolumes: {},
  sosUserIds: new Set(),
};
let policy: AudioPolicy = toPolicy(state);
const listeners = new Set<() => void>();

function toPolicy(s: PolicyState): AudioPolicy {
  const hidden = new Set([...s.mutedUserIds, ...s.blockedUserIds]);
  const neverHeard = new Set(s.blockedUserIds);
  if (s.selfUserId) {
    hidden.add(s.selfUserId);
    neverHeard.add(s.selfUserId);
  }
  return {
    channelMuted: s.channelMuted,
    hiddenUserIds: hidden,
    memberVolumes: s.memberVolumes,
    sosUserIds: s.sosUserIds,
    neverHeardUserIds: neverHeard,
  };
}

function sameIds(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((id) => b.has(id));
}

function sameVolumes(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((id) => a[id] === b[id]);
}

function update(patch: Partial<PolicyState>): void {
  const next = { ...state, ...patch };
  if (
    next.channelMuted === state.channelMuted &&
    next.selfUserId === state.selfUserId &&
    sameIds(next.mutedUserIds, state.mutedUserIds) &&
    sameIds(next.blockedUserIds, state.blockedUserIds) &&
    sameIds(next.sosUserIds, state.sosUserIds) &&
    sameVolumes(next.memberVolumes, state.memberVolumes)
  )
    return;
  state = next;
  policy = toPolicy(state);
  for (const listener of [...listeners]) listener();
}

export const audioPolicyStore = {
  getPolicy: (): AudioPolicy => policy,
  isChannelMuted: (): boolean => state.channelMuted,
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  setChannelMuted: (channelMuted: boolean) => update({ channelMuted }),
  setMutedUserIds: (ids: Iterable<string>) => update({ mutedUserIds: new Set(ids) }),
  setBlockedUserIds: (ids: Iterable<string>) => update({ blockedUserIds: new Set(ids) }),
  setSelfUserId: (selfUserId: string | null) => update({ selfUserId }),
  /** Whose SOS is on the air in the channel now (decision 050): heard at full volume. */
  setSosUserIds: (ids: Iterable<string>) => update({ sosUserIds: new Set(ids) }),
  /** Per-member volumes in percent; members not listed play at 100 %. */
  setMemberVolumes: (memberVolumes: Readonly<Record<string, number>>) =>
    update({ memberVolumes: { ...memberVolumes } }),
};

/** Whether Mute Channel is on, re-rendering on change. */
export function useChannelMuted(): boolean {
  return useSyncExternalStore(
    audioPolicyStore.subscribe,
    audioPolicyStore.isChannelMuted,
    audioPolicyStore.isChannelMuted,
  );
}
