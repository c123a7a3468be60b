/**
 * Spec §4 "Voice online state" (ONLINE / OFFLINE, idle, a call) together with the channel socket
 * membership of §4 "Channel socket connection state": where the user is and whether they hear the
 * channel. Whether their voice may go out is the transmit gate's (`transmit-gate.ts`); the presence
 * reducer (`presence-state.ts`) runs both and sends the messages in the one safe order.
 *
 * What the server hears of this part (decision 016): `join_channel` with `listening` while the
 * channel is selected on an open socket — `listening` exactly while the user hears it (ONLINE, not
 * idle, no call).
 */
export type OnlineState = {
  /** The `/ws` socket is open; nothing is sent otherwise. */
  socketOpen: boolean;
  /** The selected channel, joined on the socket whenever the socket is open. */
  channelId: number | null;
  /** The big button's state: hearing the channel and, as the transmit gate allows, talking. */
  online: boolean;
  /** No input for the tier's timeout, or the page hidden (spec §4 "Idle detection"). */
  idle: boolean;
  /** A one-to-one call is active: the channel's voice room is off meanwhile. */
  callActive: boolean;
  /** The voice room is connected and carries the microphone (reported by the voice runtime). */
  voiceOnAir: boolean;
  /**
   * Decision 021: a lost connection forced the user offline here; once the socket is open again
   * and they are still a member, they go back ONLINE (self-mute kept). Cleared by any choice of
   * theirs (another channel, a call, signing out) and by the channel going away.
   */
  rejoin: { channelId: number; selfMuted: boolean } | null;
};

export const initialOnlineState: OnlineState = {
  socketOpen: false,
  channelId: null,
  online: false,
  idle: false,
  callActive: false,
  voiceOnAir: false,
  rejoin: null,
};

/** Why the app (not the user) takes someone offline. */
export type OfflineReason = 'removed' | 'deleted';

export type OnlineEvent =
  | { type: 'socket'; open: boolean }
  | { type: 'select_channel'; channelId: number | null }
  /** The big ONLINE / OFFLINE button. */
  | { type: 'toggle_online' }
  /** Taken offline by the app (accepting a call in a channel, spec §4); no-op when offline. */
  | { type: 'go_offline' }
  | { type: 'idle'; idle: boolean }
  | { type: 'call'; active: boolean }
  | { type: 'voice'; onAir: boolean }
  /** The current channel went away under the user: leave it and go offline. */
  | { type: 'channel_gone'; channelId: number; reason: OfflineReason }
  /** Signed out: leave quietly, forget everything. */
  | { type: 'detach' }
  /** The answer to a `check_rejoin` effect: whether the user is still a member of the channel. */
  | { type: 'rejoin'; channelId: number; member: boolean };

export type Toast = { title: string; description?: string; variant?: 'destructive' };

export const TOASTS = {
  online: { title: 'Online', description: 'Connecting to voice...' },
  offline: { title: 'Offline' },
  connectionLost: {
    title: 'Connection Lost',
    description: 'Voice disconnected due to connection loss',
    variant: 'destructive',
  },
  selfMuted: { title: 'Self Muted' },
  selfUnmuted: { title: 'Self Unmuted' },
  removed: { title: 'Offline', description: 'You are no longer a member of this channel' },
  deleted: { title: 'Offline', description: 'This channel was deleted' },
  /** Decision 021 (not in the spec, which stops at Connection Lost): back by itself. */
  reconnected: { title: 'Reconnected', description: 'Back online in the channel' },
} as const satisfies Record<string, Toast>;

/** Hearing the channel: ONLINE in it on an open socket, not idle, no call. */
export function isListening(state: OnlineState): boolean {
  return (
    state.online && state.socketOpen && state.channelId !== null && !state.idle && !state.callActive
  );
}

function offline<S extends OnlineState>(state: S): S {
  return { ...state, online: false, idle: false, rejoin: null };
}

function online<S extends OnlineState>(state: S): S {
  return { ...state, online: true, idle: false, rejoin: null };
}

export type OnlineStep<S extends OnlineState> = {
  state: S;
  toasts: Toast[];
  /** Decision 021: ask the server whether the user still belongs to this channel. */
  checkRejoin?: number;
};

/**
 * The user-visible part of a transition of the connection (the presence reducer adds the
 * messages). `selfMuted` is the transmit gate's, remembered when a drop forces the user offline.
 * Fields other than the connection's pass through; a no-op returns the very same object.
 */
export function stepOnline<S extends OnlineState>(
  state: S,
  event: OnlineEvent,
  selfMuted: boolean,
): OnlineStep<S> {
  switch (event.type) {
    case 'socket': {
      if (event.open === state.socketOpen) return { state, toasts: [] };
      const changed = { ...state, socketOpen: event.open };
      if (!event.open && state.online && state.channelId !== null) {
        // Spec §4: forced offline at the drop. Decision 021: remembered, to come back by itself.
        const rejoin = { channelId: state.channelId, selfMuted };
        return { state: { ...offline(changed), rejoin }, toasts: [TOASTS.connectionLost] };
      }
      if (event.open && state.rejoin)
        return { state: changed, toasts: [], checkRejoin: state.rejoin.channelId };
      return { state: changed, toasts: [] };
    }
    case 'rejoin': {
      const { rejoin } = state;
      if (!rejoin || rejoin.channelId !== event.channelId) return { state, toasts: [] };
      const back =
        event.member &&
        !state.online &&
        state.socketOpen &&
        state.channelId === rejoin.channelId &&
        !state.callActive;
      if (!back) {
        // Still closed: the next open asks again. Otherwise the chance to rejoin has passed.
        if (event.member && !state.socketOpen) return { state, toasts: [] };
        return { state: { ...state, rejoin: null }, toasts: [] };
      }
      return { state: online(state), toasts: [TOASTS.reconnected] };
    }
    case 'select_channel': {
      if (event.channelId === state.channelId) return { state, toasts: [] };
      const changed = { ...state, channelId: event.channelId, rejoin: null };
      // Spec §4: switching channel while online first goes offline.
      if (state.online) return { state: offline(changed), toasts: [TOASTS.offline] };
      return { state: changed, toasts: [] };
    }
    case 'toggle_online': {
      if (state.online) return { state: offline(state), toasts: [TOASTS.offline] };
      // Online means talking on an open socket in a channel; without one there is nothing to join.
      if (!state.socketOpen || state.channelId === null || state.callActive)
        return { state, toasts: [] };
      return { state: online(state), toasts: [TOASTS.online] };
    }
    case 'go_offline':
      // Taken offline for a call: a pending rejoin would undo that once the socket is back.
      if (!state.online && state.rejoin) return { state: { ...state, rejoin: null }, toasts: [] };
      if (!state.online) return { state, toasts: [] };
      return { state: offline(state), toasts: [TOASTS.offline] };
    case 'idle': {
      // Idle detection only runs while online; an idle report after going offline is stale.
      const idle = event.idle && state.online;
      return { state: idle === state.idle ? state : { ...state, idle }, toasts: [] };
    }
    case 'call':
      if (event.active === state.callActive) return { state, toasts: [] };
      if (event.active) return { state: { ...state, callActive: true, rejoin: null }, toasts: [] };
      return { state: { ...state, callActive: event.active }, toasts: [] };
    case 'voice':
      if (event.onAir === state.voiceOnAir) return { state, toasts: [] };
      return { state: { ...state, voiceOnAir: event.onAir }, toasts: [] };
    case 'channel_gone': {
      if (event.channelId !== state.channelId) return { state, toasts: [] };
      const changed = { ...state, channelId: null, rejoin: null };
      if (!state.online) return { state: changed, toasts: [] };
      return {
        state: offline(changed),
        toasts: [event.reason === 'removed' ? TOASTS.removed : TOASTS.deleted],
      };
    }
    case 'detach':
      return {
        state: { ...state, ...initialOnlineState, socketOpen: state.socketOpen },
        toasts: [],
      };
  }
}

/**
 * DESIGN §3: "full-duplex connected" is online in a channel with the socket open. The voice room is
 * connected while this holds, no call is active and the user is not idle.
 */
export function isFullDuplexConnected(state: OnlineState): boolean {
  return state.online && state.socketOpen && state.channelId !== null;
}
