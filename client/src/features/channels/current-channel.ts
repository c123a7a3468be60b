import { useSyncExternalStore } from 'react';

/**
 * The channel the main screen shows and the presence/voice features connect to. A module-level store
 * rather than a React context, so sockets and other non-React code can read it and no provider has to
 * wrap the screens.
 */
let currentChannelId: number | null = null;
const listeners = new Set<() => void>();

export function getCurrentChannelId(): number | null {
  return currentChannelId;
}

export function setCurrentChannelId(channelId: number | null): void {
  if (channelId === currentChannelId) return;
  currentChannelId = channelId;
  for (const listener of listeners) listener();
}

/** Calls `listener` after every change; returns the unsubscribe function. */
export function subscribeCurrentChannel(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export type CurrentChannel = {
  channelId: number | null;
  setChannelId: (channelId: number | null) => void;
};

/** The selected channel id and its setter, re-rendering on every change. */
export function useCurrentChannel(): CurrentChannel {
  const channelId = useSyncExternalStore(
    subscribeCurrentChannel,
    getCurrentChannelId,
    getCurrentChannelId,
  );
  return { channelId, setChannelId: setCurrentChannelId };
}

/** The store as one object, for framework-free code (presence, the session). */
export const currentChannel = {
  get: getCurrentChannelId,
  set: setCurrentChannelId,
  subscribe: subscribeCurrentChannel,
};
