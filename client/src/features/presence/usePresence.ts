import { useSyncExternalStore } from 'react';
import { isFullDuplexConnected } from './online-state';
import type { PresenceState } from './presence-state';
import { presenceStore } from './presence-store';

const subscribe = (listener: () => void) => presenceStore.subscribe(listener);
const snapshot = () => presenceStore.state;

export type PresenceView = PresenceState & {
  /** Online in a channel with the socket open (DESIGN §3); the voice room needs this and not idle. */
  fullDuplexConnected: boolean;
};

/**
 * The tab's voice online state for rendering: online, talking, idle, socketOpen, the channel it
 * applies to and the transmit gate (read it with `transmit-gate.ts`'s helpers). Works anywhere
 * under the app, no provider needed.
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
