import { useSyncExternalStore } from 'react';
import type { AudioPolicy } from './audio-policy';

/**
 * The tab's one audio policy: the Mute Channel toggle and the ids never to be heard. A module store
 * because the toggle, the muted-users query and the audio watcher live in different components.
 */
type PolicyState = {
  channelMuted: boolean;
  mutedUserIds: ReadonlySet<string>;
  blockedUserIds: ReadonlySet<string>;
  selfUserId: string | null;
};

let state: PolicyState = {
  channelMuted: false,
  mutedUserIds: new Set(),
  blockedUserIds: new Set(),
  selfUserId: null,
};
let policy: AudioPolicy = toPolicy(state);
const listeners = new Set<() => void>();

function toPolicy(s: PolicyState): AudioPolicy {
  const hidden = new Set([...s.mutedUserIds, ...s.blockedUserIds]);
  if (s.selfUserId) hidden.add(s.selfUserId);
  return { channelMuted: s.channelMuted, hiddenUserIds: hidden };
}

function sameIds(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((id) => b.has(id));
}

function update(patch: Partial<PolicyState>): void {
  const next = { ...state, ...patch };
  if (
    next.channelMuted === state.channelMuted &&
    next.selfUserId === state.selfUserId &&
    sameIds(next.mutedUserIds, state.mutedUserIds) &&
    sameIds(next.blockedUserIds, state.blockedUserIds)
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
};

/** Whether Mute Channel is on, re-rendering on change. */
export function useChannelMuted(): boolean {
  return useSyncExternalStore(
    audioPolicyStore.subscribe,
    audioPolicyStore.isChannelMuted,
    audioPolicyStore.isChannelMuted,
  );
}
