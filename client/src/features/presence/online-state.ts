import type { FloorRelease, FloorRequest } from '../../../../protocol/floor';
import type { ChannelClientMessage } from '../../../../protocol/sockets';

/**
 * Spec §4 "Voice online state" together with the channel socket membership of §4 "Channel socket
 * connection state", as one pure reducer. They share one reducer because the order of the messages
 * matters on the wire: a `stop_talking` sent after `leave_channel` would make the server join the
 * old channel again, so every transition emits its messages in the one safe order.
 *
 * What the server hears (decision 016): `join_channel` with `listening` while the channel is
 * selected on an open socket — `listening` exactly while the user hears it (ONLINE, not idle, no
 * call); `start_talking` exactly while their voice is on the air (listening, not muted, holding in
 * Hold to talk, and the voice room carrying their microphone).
 */
export type OnlineState = {
  /** The `/ws` socket is open; nothing is sent otherwise. */
  socketOpen: boolean;
  /** The selected channel, joined on the socket whenever the socket is open. */
  channelId: number | null;
  /** The big button's state: hearing the channel and, unless muted or idle, talking. */
  online: boolean;
  /** What the server is told: the user's voice is on the air (derived, see `isOnAir`). */
  talking: boolean;
  selfMuted: boolean;
  /** No input for the tier's timeout, or the page hidden (spec §4 "Idle detection"). */
  idle: boolean;
  /** A one-to-one call is active: the channel's voice room is off meanwhile. */
  callActive: boolean;
  /** The voice room is connected and carries the microphone (reported by the voice runtime). */
  voiceOnAir: boolean;
  /** "toggle" (the spec's default): online means talking. "hold": online hears; holding talks. */
  talkMode: TalkMode;
  /** In hold mode: the button or Space is held (or latched by a headset's play/pause). */
  holding: boolean;
  /** The user opted in to a headset's play/pause button muting or talking (off by default). */
  headsetTalk: boolean;
  /**
   * Decision 021: a lost connection forced the user offline here; once the socket is open again
   * and they are still a member, they go back ONLINE (self-mute kept). Cleared by any choice of
   * theirs (another channel, a call, signing out) and by the channel going away.
   */
  rejoin: { channelId: number; selfMuted: boolean } | null;
  /**
   * Issue 17: the selected channel is a walkie-talkie channel. Everyone holds to talk there, and a
   * hold asks the server for the floor; the microphone opens only once it is granted.
   */
  walkie: boolean;
  /** The server granted this tab the floor of the walkie-talkie channel, and it is still held. */
  hasFloor: boolean;
};

export type TalkMode = 'toggle' | 'hold';

export const initialOnlineState: OnlineState = {
  socketOpen: false,
  channelId: null,
  online: false,
  talking: false,
  selfMuted: false,
  idle: false,
  callActive: false,
  voiceOnAir: false,
  talkMode: 'toggle',
  holding: false,
  headsetTalk: false,
  rejoin: null,
  walkie: false,
  hasFloor: false,
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
  | { type: 'toggle_self_mute' }
  | { type: 'idle'; idle: boolean }
  | { type: 'call'; active: boolean }
  | { type: 'voice'; onAir: boolean }
  | { type: 'set_talk_mode'; mode: TalkMode }
  | { type: 'set_headset_talk'; on: boolean }
  /** Hold to talk: pressed (true) or released (false, after the release hold). */
  | { type: 'hold'; holding: boolean }
  /** The current channel went away under the user: leave it and go offline. */
  | { type: 'channel_gone'; channelId: number; reason: OfflineReason }
  /** Signed out: leave quietly, forget everything. */
  | { type: 'detach' }
  /** The answer to a `check_rejoin` effect: whether the user is still a member of the channel. */
  | { type: 'rejoin'; channelId: number; member: boolean }
  /** Issue 17: the selected channel's talk mode (walkie-talkie or open), as the server says. */
  | { type: 'walkie'; channelId: number; walkie: boolean }
  /** Issue 17: who holds the selected channel's floor changed; `mine` when it is this tab's. */
  | { type: 'floor'; channelId: number; mine: boolean };

export type OutgoingMessage =
  | Pick<
      Extract<ChannelClientMessage, { type: 'join_channel' }>,
      'type' | 'channelId' | 'listening'
    >
  | Pick<Exclude<ChannelClientMessage, { type: 'join_channel' }>, 'type' | 'channelId'>
  | FloorRequest
  | FloorRelease;

export type Toast = { title: string; description?: string; variant?: 'destructive' };

export type OnlineEffect =
  | { kind: 'send'; message: OutgoingMessage }
  | { kind: 'toast'; toast: Toast }
  /** Decision 021: ask the server whether the user still belongs to the channel, then `rejoin`. */
  | { kind: 'check_rejoin'; channelId: number };

export type Transition = { state: OnlineState; effects: OnlineEffect[] };

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

type Derived = Omit<OnlineState, 'talking'>;

/** Hearing the channel: ONLINE in it on an open socket, not idle, no call. */
export function isListening(state: Derived): boolean {
  return (
    state.online && state.socketOpen && state.channelId !== null && !state.idle && !state.callActive
  );
}

/** Hold to talk applies: the user chose it, or the channel is a walkie-talkie channel. */
export function holdsToTalk(state: Pick<OnlineState, 'talkMode' | 'walkie'>): boolean {
  return state.walkie || state.talkMode === 'hold';
}

/**
 * The microphone should be open: listening, not self-muted, and holding in Hold to talk — in a
 * walkie-talkie channel, holding the floor the server granted.
 */
export function wantsToTransmit(state: Derived): boolean {
  if (!isListening(state) || state.selfMuted) return false;
  if (state.walkie) return state.holding && state.hasFloor;
  return state.talkMode === 'toggle' || state.holding;
}

/** The server hears "talking" exactly while the voice is really on the air. */
function isOnAir(state: Derived): boolean {
  return wantsToTransmit(state) && state.voiceOnAir;
}

function offline(state: OnlineState): OnlineState {
  return {
    ...state,
    online: false,
    selfMuted: false,
    idle: false,
    holding: false,
    hasFloor: false,
    rejoin: null,
  };
}

type Step = { state: OnlineState; toasts: Toast[]; checkRejoin?: number };

/** The user-visible part of a transition; `settle` adds the messages. */
function next(state: OnlineState, event: OnlineEvent): Step {
  switch (event.type) {
    case 'socket': {
      if (event.open === state.socketOpen) return { state, toasts: [] };
      const changed = { ...state, socketOpen: event.open };
      if (!event.open && state.online && state.channelId !== null) {
        // Spec §4: forced offline at the drop. Decision 021: remembered, to come back by itself.
        const rejoin = { channelId: state.channelId, selfMuted: state.selfMuted };
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
      return {
        state: {
          ...state,
          online: true,
          selfMuted: rejoin.selfMuted,
          idle: false,
          holding: false,
          rejoin: null,
        },
        toasts: [TOASTS.reconnected],
      };
    }
    case 'select_channel': {
      if (event.channelId === state.channelId) return { state, toasts: [] };
      // The new channel's talk mode follows (a `walkie` event); until then it is an open channel.
      const changed = {
        ...state,
        channelId: event.channelId,
        rejoin: null,
        walkie: false,
        hasFloor: false,
      };
      // Spec §4: switching channel while online first goes offline.
      if (state.online) return { state: offline(changed), toasts: [TOASTS.offline] };
      return { state: changed, toasts: [] };
    }
    case 'toggle_online': {
      if (state.online) return { state: offline(state), toasts: [TOASTS.offline] };
      // Online means talking on an open socket in a channel; without one there is nothing to join.
      if (!state.socketOpen || state.channelId === null || state.callActive)
        return { state, toasts: [] };
      return {
        state: {
          ...state,
          online: true,
          selfMuted: false,
          idle: false,
          holding: false,
          rejoin: null,
        },
        toasts: [TOASTS.online],
      };
    }
    case 'go_offline':
      // Taken offline for a call: a pending rejoin would undo that once the socket is back.
      if (!state.online && state.rejoin) return { state: { ...state, rejoin: null }, toasts: [] };
      if (!state.online) return { state, toasts: [] };
      return { state: offline(state), toasts: [TOASTS.offline] };
    case 'toggle_self_mute': {
      if (!state.online) return { state, toasts: [] };
      const selfMuted = !state.selfMuted;
      return {
        state: { ...state, selfMuted },
        toasts: [selfMuted ? TOASTS.selfMuted : TOASTS.selfUnmuted],
      };
    }
    case 'set_talk_mode':
      return { state: { ...state, talkMode: event.mode, holding: false }, toasts: [] };
    case 'set_headset_talk':
      if (event.on === state.headsetTalk) return { state, toasts: [] };
      return { state: { ...state, headsetTalk: event.on }, toasts: [] };
    case 'hold': {
      // Holding only transmits while online in hold mode; holding also counts as activity.
      const holding = event.holding && state.online && holdsToTalk(state);
      if (holding === state.holding) return { state, toasts: [] };
      // Released: the floor is given back with the release (the server hears floor_release).
      const hasFloor = holding && state.hasFloor;
      return {
        state: { ...state, holding, hasFloor, idle: holding ? false : state.idle },
        toasts: [],
      };
    }
    case 'walkie': {
      if (event.channelId !== state.channelId || event.walkie === state.walkie)
        return { state, toasts: [] };
      return { state: { ...state, walkie: event.walkie, holding: false, hasFloor: false }, toasts: [] };
    }
    case 'floor': {
      if (event.channelId !== state.channelId) return { state, toasts: [] };
      // A grant that arrives after the release is not used (the release already gave it back).
      const hasFloor = event.mine && state.walkie && state.holding;
      if (hasFloor === state.hasFloor) return { state, toasts: [] };
      return { state: { ...state, hasFloor }, toasts: [] };
    }
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
        state: {
          ...initialOnlineState,
          socketOpen: state.socketOpen,
          talkMode: state.talkMode,
          headsetTalk: state.headsetTalk,
        },
        toasts: [],
      };
  }
}

/** The messages that take the server from `before` to `after`, in the one safe order. */
function messages(
  before: OnlineState,
  after: OnlineState,
  channelGone: boolean,
): OutgoingMessage[] {
  const out: OutgoingMessage[] = [];
  if (!after.socketOpen) return out;
  const was = before.socketOpen ? before.channelId : null;
  const now = after.channelId;
  const keepsChannel = was !== null && was === now;
  // A channel the user was removed from, or that was deleted, is already left on the server.
  const canSpeakToOld = was !== null && !(channelGone && !keepsChannel);
  if (before.talking && canSpeakToOld && (!after.talking || !keepsChannel)) {
    out.push({ type: 'stop_talking', channelId: was });
  }
  const listening = isListening(after);
  if (!keepsChannel) {
    if (canSpeakToOld) out.push({ type: 'leave_channel', channelId: was });
    if (now !== null) out.push({ type: 'join_channel', channelId: now, listening });
  } else if (listening !== isListening(before)) {
    // Joining again only updates whether the user hears the channel (decision 016).
    out.push({ type: 'join_channel', channelId: now, listening });
  }
  if (after.talking && now !== null && (!before.talking || !keepsChannel)) {
    out.push({ type: 'start_talking', channelId: now });
  }
  // Walkie-talkie: a hold asks for the floor, a release (or going offline) gives it back.
  if (keepsChannel && after.walkie && before.walkie && before.holding !== after.holding) {
    out.push({ type: after.holding ? 'floor_request' : 'floor_release', channelId: now });
  }
  return out;
}

/** One step of the machine: the next state and what to send and show, in order. */
export function reduceOnline(state: OnlineState, event: OnlineEvent): Transition {
  const { state: changed, toasts, checkRejoin } = next(state, event);
  const talking = isOnAir(changed);
  const settled = changed.talking === talking ? changed : { ...changed, talking };
  const sends = messages(state, settled, event.type === 'channel_gone');
  return {
    state: settled,
    effects: [
      ...sends.map((message): OnlineEffect => ({ kind: 'send', message })),
      ...toasts.map((toast): OnlineEffect => ({ kind: 'toast', toast })),
      ...(checkRejoin === undefined
        ? []
        : [{ kind: 'check_rejoin', channelId: checkRejoin } as const]),
    ],
  };
}

/**
 * DESIGN §3: "full-duplex connected" is online in a channel with the socket open. The voice room is
 * connected while this holds, no call is active and the user is not idle.
 */
export function isFullDuplexConnected(state: OnlineState): boolean {
  return state.online && state.socketOpen && state.channelId !== null;
}
