import type { FloorRelease, FloorRequest } from '../../../../protocol/floor';
import type { ChannelClientMessage } from '../../../../protocol/sockets';
import {
  initialOnlineState,
  isListening,
  stepOnline,
  TOASTS,
  type OnlineEvent,
  type OnlineState,
  type OnlineStep,
  type Toast,
} from './online-state';
import {
  initialTransmitGate,
  isHeld,
  isOpen,
  isSelfMuted,
  stepGate,
  type GateEvent,
  type TalkMode,
  type TransmitGate,
} from './transmit-gate';

/**
 * The tab's presence: the online state (where the user is, whether they hear the channel) and the
 * transmit gate (whether their voice may go out), run as one reducer because the order of the
 * messages matters on the wire: a `stop_talking` sent after `leave_channel` would make the server
 * join the old channel again, so every transition emits its messages in the one safe order.
 *
 * Decision 016: `start_talking` is sent exactly while the voice is on the air: hearing the
 * channel, the gate open, and the voice room carrying the microphone.
 */
export type PresenceState = OnlineState & {
  gate: TransmitGate;
  /** What the server is told: the user's voice is on the air (derived, see `isOnAir`). */
  talking: boolean;
};

export const initialPresenceState: PresenceState = {
  ...initialOnlineState,
  gate: initialTransmitGate,
  talking: false,
};

export type PresenceEvent =
  | OnlineEvent
  | { type: 'toggle_self_mute' }
  | { type: 'set_talk_mode'; mode: TalkMode }
  | { type: 'set_headset_talk'; on: boolean }
  /** Hold to talk: pressed (true) or released (false, after the release hold). */
  | { type: 'hold'; holding: boolean }
  /** The selected channel's talk mode (walkie-talkie or open), as the server says. */
  | { type: 'walkie'; channelId: number; walkie: boolean }
  /** Who holds the selected channel's floor changed; `mine` when it is this tab's. */
  | { type: 'floor'; channelId: number; mine: boolean }
  /** The server refused this tab's floor request in the selected channel. */
  | { type: 'floor_denied'; channelId: number };

export type OutgoingMessage =
  | Pick<
      Extract<ChannelClientMessage, { type: 'join_channel' }>,
      'type' | 'channelId' | 'listening'
    >
  | Pick<Exclude<ChannelClientMessage, { type: 'join_channel' }>, 'type' | 'channelId'>
  | FloorRequest
  | FloorRelease;

export type PresenceEffect =
  | { kind: 'send'; message: OutgoingMessage }
  | { kind: 'toast'; toast: Toast }
  /** Decision 021: ask the server whether the user still belongs to the channel, then `rejoin`. */
  | { kind: 'check_rejoin'; channelId: number };

export type Transition = { state: PresenceState; effects: PresenceEffect[] };

/** The microphone should be open: hearing the channel, and the transmit gate open. */
export function wantsToTransmit(state: OnlineState & { gate: TransmitGate }): boolean {
  return isListening(state) && isOpen(state.gate);
}

/** The server hears "talking" exactly while the voice is really on the air. */
function isOnAir(state: OnlineState & { gate: TransmitGate }): boolean {
  return wantsToTransmit(state) && state.voiceOnAir;
}

/** What the online step means for the gate: going online or offline, another channel. */
function followOnline(before: PresenceState, after: OnlineState, event: OnlineEvent): GateEvent[] {
  const out: GateEvent[] = [];
  // Another channel (or none) is an open channel until its talk mode says otherwise.
  const switched = event.type === 'select_channel' && after.channelId !== before.channelId;
  if (switched || event.type === 'detach') out.push({ type: 'walkie', walkie: false });
  if (before.online && !after.online) out.push({ type: 'go_offline' });
  if (!before.online && after.online) {
    // Back after a lost connection keeps self-mute (decision 021); the big button unmutes.
    const selfMuted = event.type === 'rejoin' && before.rejoin !== null && before.rejoin.selfMuted;
    out.push({ type: 'go_online', selfMuted });
  }
  return out;
}

/** The messages that take the server from `before` to `after`, in the one safe order. */
function messages(
  before: PresenceState,
  after: PresenceState,
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
  const wasHeld = isHeld(before.gate);
  const walkie = before.gate.walkie && after.gate.walkie;
  if (keepsChannel && walkie && wasHeld !== isHeld(after.gate)) {
    out.push({ type: wasHeld ? 'floor_release' : 'floor_request', channelId: now });
  }
  return out;
}

/** One step of the presence machine: the next state and what to send and show, in order. */
export function reducePresence(state: PresenceState, event: PresenceEvent): Transition {
  // The gate's own events go to the gate alone; the online state's step tells the gate the rest.
  let online: OnlineStep<PresenceState> = { state, toasts: [] };
  let gateEvents: GateEvent[];
  switch (event.type) {
    case 'toggle_self_mute':
    case 'set_talk_mode':
    case 'set_headset_talk':
    case 'hold':
      gateEvents = [event];
      break;
    case 'walkie':
    case 'floor':
    case 'floor_denied':
      // Only the selected channel's talk mode and floor count.
      gateEvents = event.channelId === state.channelId ? [event] : [];
      break;
    default:
      online = stepOnline(state, event, isSelfMuted(state.gate));
      gateEvents = followOnline(state, online.state, event);
  }
  let changed = online.state;
  const toasts: Toast[] = [...online.toasts];

  const gate = gateEvents.reduce(stepGate, state.gate);
  if (gate !== changed.gate) changed = { ...changed, gate };
  if (event.type === 'toggle_self_mute' && gate !== state.gate)
    toasts.push(isSelfMuted(gate) ? TOASTS.selfMuted : TOASTS.selfUnmuted);
  // A press is activity: the user is not idle any more.
  if (changed.idle && isHeld(gate) && !isHeld(state.gate)) changed = { ...changed, idle: false };

  const talking = isOnAir(changed);
  const settled = changed.talking === talking ? changed : { ...changed, talking };
  const sends = messages(state, settled, event.type === 'channel_gone');
  return {
    state: settled,
    effects: [
      ...sends.map((message): PresenceEffect => ({ kind: 'send', message })),
      ...toasts.map((toast): PresenceEffect => ({ kind: 'toast', toast })),
      ...(online.checkRejoin === undefined
        ? []
        : [{ kind: 'check_rejoin', channelId: online.checkRejoin } as const]),
    ],
  };
}
