import { useSyncExternalStore } from 'react';
import { isFullDuplexConnected, type OnlineState } from './online-state';
import { presenceStore } from './presence-store';

const subscribe = (listener: () => void) => presenceStore.subscribe(listener);
const snapshot = () => presenceStore.state;

export type PresenceView = OnlineState & {
  /** Online in a channel with the socket open (DESIGN §3); the voice room needs this and not idle. */
  fullDuplexConnected: boolean;
};

/**
 * The tab's voice online state for rendering: online, talking, selfMuted, idle, socketOpen and
 * the channel it applies to. Works anywhere under the app, no provider needed.
 */
export function usePresence(): PresenceView {
  const state = useSyncExternalStore(subscribe, snapshot, snapshot);
  return { ...state, fullDuplexConnected: isFullDuplexConnected(state) };
}

/** The big button: offline → online (talking, unmuted) or online → offline. */
export function toggleOnline(): void {
  presenceStore.dispatch({ type: 'toggle_online' });
}

/** Mute Self: stops talking while muted and toasts Self Muted / Self Unmuted; only while online. */
export function toggleSelfMute(): void {
  presenceStore.dispatch({ type: 'toggle_self_mute' });
}
