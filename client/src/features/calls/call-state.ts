import type {
  CallClientMessage,
  CallServerMessage,
  IncomingCall,
} from '../../../../protocol/calls';

/**
 * The call lifecycle (spec §4 "Calls") as a pure reducer: idle → outgoing (ringing, as initiator)
 * or incoming → active → (minimized ⇄ restored) → idle. Each step returns the next state and the
 * effects to carry out — messages, ringtone, the peer connection, tones, toasts — in order, like
 * the presence and room reducers. `CallController` runs them; React only renders the state.
 */
export interface CallInfo {
  callId: string;
  roomName: string;
  /** The other party. */
  contactId: string;
  contactName: string;
  contactProfileImageUrl: string | null;
  isInitiator: boolean;
}

/** "connecting" until the peer connection carries audio both ways ("Connecting voice..."). */
export type MediaStatus = 'connecting' | 'connected';

export type CallState =
  | { phase: 'idle' }
  | { phase: 'incoming'; call: CallInfo }
  | { phase: 'outgoing'; call: CallInfo; minimized: boolean; media: MediaStatus }
  | { phase: 'active'; call: CallInfo; minimized: boolean; media: MediaStatus; startedAt: number };

/** What the screens render: the call and whether the local microphone is muted. */
export interface CallView {
  state: CallState;
  muted: boolean;
}

export interface Notice {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
}

export type CallEvent =
  /** The user calls someone; nothing happens unless the socket is open (spec §5). */
  | { type: 'place'; call: CallInfo; callerId: string; socketOpen: boolean }
  | { type: 'accept'; now: number; deviceId: string; socketOpen: boolean }
  | { type: 'decline' }
  /** Ends the call, or cancels it while it still rings at the other end. */
  | { type: 'hang_up' }
  | { type: 'minimize' }
  | { type: 'restore' }
  | { type: 'toggle_mute' }
  /** The tab is going away: end a live call now rather than after the server's grace period. */
  | { type: 'page_hidden' }
  | { type: 'server'; message: CallServerMessage; now: number; deviceId: string }
  | { type: 'media'; callId: string; status: MediaStatus }
  /** The call's signalling room is gone (ended elsewhere, or refused). */
  | { type: 'room_gone'; callId: string }
  | { type: 'microphone_failed'; callId: string; message: string }
  /** Signed out or the socket owner went away: drop the call quietly. */
  | { type: 'detach' };

export type CallEffect =
  | { kind: 'send'; message: CallClientMessage }
  | { kind: 'start_ringtone' }
  | { kind: 'stop_ringtone' }
  | { kind: 'open_peer'; call: CallInfo; muted: boolean }
  | { kind: 'mute_peer'; muted: boolean }
  | { kind: 'close_peer' }
  | { kind: 'hangup_tone' }
  | { kind: 'notify'; notice: Notice }
  /** Call history (and missed-call marks) changed. */
  | { kind: 'history_changed' }
  /** Spec §4: accepting a call while online in a channel first takes the user off the channel. */
  | { kind: 'leave_channel_voice' };

export type CallTransition = { view: CallView; effects: CallEffect[] };

export const IDLE: CallState = { phase: 'idle' };
export const IDLE_VIEW: CallView = { state: IDLE, muted: false };

export function currentCall(state: CallState): CallInfo | null {
  return state.phase === 'idle' ? null : state.call;
}

/** A call is active (for the channel voice) from placing or accepting it until it ends. */
export function isCallActive(state: CallState): boolean {
  return state.phase === 'outgoing' || state.phase === 'active';
}

export function incomingInfo(message: IncomingCall): CallInfo {
  return {
    callId: message.callId,
    roomName: message.roomName,
    contactId: message.callerId,
    contactName: message.callerName,
    contactProfileImageUrl: message.callerProfileImageUrl,
    isInitiator: false,
  };
}

type Step = {
  state: CallState;
  muted?: boolean;
  effects?: CallEffect[];
  audible?: boolean;
};

/** The user's and the server's events, before the effects every phase change implies. */
function step(view: CallView, event: CallEvent): Step | null {
  const { state } = view;
  const call = currentCall(state);
  switch (event.type) {
    case 'place': {
      if (state.phase !== 'idle' || !event.socketOpen || event.call.contactId === event.callerId)
        return null;
      const { callId, roomName, contactId } = event.call;
      return {
        state: { phase: 'outgoing', call: event.call, minimized: false, media: 'connecting' },
        effects: [
          {
            kind: 'send',
            message: {
              type: 'initiate_call',
              callId,
              callerId: event.callerId,
              receiverId: contactId,
              roomName,
            },
          },
        ],
      };
    }
    case 'accept': {
      if (state.phase !== 'incoming' || !event.socketOpen) return null;
      const { callId, roomName } = state.call;
      return {
        state: {
          phase: 'active',
          call: state.call,
          minimized: false,
          media: 'connecting',
          startedAt: event.now,
        },
        effects: [
          { kind: 'leave_channel_voice' },
          {
            kind: 'send',
            message: { type: 'call_accepted', callId, roomName, deviceId: event.deviceId },
          },
        ],
      };
    }
    case 'decline':
      if (state.phase !== 'incoming') return null;
      return {
        state: IDLE,
        effects: [
          { kind: 'send', message: { type: 'call_declined', callId: state.call.callId } },
          { kind: 'history_changed' },
        ],
      };
    case 'hang_up':
      if (!call || state.phase === 'incoming') return null;
      return {
        state: IDLE,
        effects: [
          { kind: 'send', message: { type: 'call_ended', callId: call.callId } },
          { kind: 'history_changed' },
        ],
      };
    case 'minimize':
    case 'restore':
      if (state.phase !== 'outgoing' && state.phase !== 'active') return null;
      return { state: { ...state, minimized: event.type === 'minimize' } };
    case 'toggle_mute':
      if (!isCallActive(state)) return null;
      return { state, muted: !view.muted, effects: [{ kind: 'mute_peer', muted: !view.muted }] };
    case 'page_hidden':
      if (!call || !isCallActive(state)) return null;
      return {
        state,
        effects: [{ kind: 'send', message: { type: 'call_ended', callId: call.callId } }],
      };
    case 'media':
      if (state.phase !== 'outgoing' && state.phase !== 'active') return null;
      if (state.call.callId !== event.callId || state.media === event.status) return null;
      return { state: { ...state, media: event.status } };
    case 'room_gone':
      if (call?.callId !== event.callId) return null;
      return {
        state: IDLE,
        effects: [
          { kind: 'notify', notice: { title: 'Call ended', description: call.contactName } },
          { kind: 'history_changed' },
        ],
      };
    case 'microphone_failed':
      if (call?.callId !== event.callId) return null;
      return {
        state,
        effects: [
          {
            kind: 'notify',
            notice: {
              title: 'Microphone Error',
              description: event.message,
              variant: 'destructive',
            },
          },
        ],
      };
    case 'detach':
      if (!call) return null;
      return { state: IDLE, audible: false };
    case 'server':
      return serverStep(view, event.message, event.now, event.deviceId);
  }
}

function serverStep(
  view: CallView,
  message: CallServerMessage,
  now: number,
  deviceId: string,
): Step | null {
  const { state } = view;
  const call = currentCall(state);
  switch (message.type) {
    case 'incoming_call':
      if (state.phase !== 'idle') return null;
      return { state: { phase: 'incoming', call: incomingInfo(message) } };
    case 'call_accepted':
      if (state.phase !== 'outgoing' || state.call.callId !== message.callId) return null;
      return {
        state: {
          phase: 'active',
          call: state.call,
          minimized: state.minimized,
          media: state.media,
          startedAt: now,
        },
      };
    case 'call_declined':
      if (call?.callId !== message.callId) return null;
      return {
        state: IDLE,
        effects: [
          ...(state.phase === 'outgoing'
            ? [{ kind: 'notify', notice: { title: message.reason ?? 'Call declined' } } as const]
            : []),
          { kind: 'history_changed' },
        ],
      };
    case 'call_ended': {
      if (call?.callId !== message.callId) return null;
      // Answered on this very device: the other devices' "answered elsewhere" is not for us.
      if (
        message.reason === 'answered_elsewhere' &&
        message.deviceId === deviceId &&
        state.phase === 'active'
      )
        return null;
      if (state.phase === 'incoming') return { state: IDLE };
      return {
        state: IDLE,
        effects: [
          { kind: 'notify', notice: { title: 'Call ended', description: call.contactName } },
          { kind: 'history_changed' },
        ],
      };
    }
    case 'call_missed':
      if (call?.callId !== message.callId) return null;
      return {
        state: IDLE,
        effects: [
          {
            kind: 'notify',
            notice:
              state.phase === 'outgoing'
                ? { title: 'No answer', description: call.contactName }
                : { title: 'Missed call', description: `From ${call.contactName}` },
          },
          { kind: 'history_changed' },
        ],
      };
  }
}

/** What every phase change implies: ringtone, peer connection, hangup tone. */
function phaseEffects(before: CallState, after: CallState, muted: boolean, audible: boolean) {
  const effects: CallEffect[] = [];
  if (after.phase === 'incoming' && before.phase !== 'incoming')
    effects.push({ kind: 'start_ringtone' });
  if (before.phase === 'incoming' && after.phase !== 'incoming')
    effects.push({ kind: 'stop_ringtone' });
  const wasLive = isCallActive(before);
  const live = isCallActive(after);
  if (live && !wasLive) effects.push({ kind: 'open_peer', call: currentCall(after)!, muted });
  if (wasLive && !live) {
    effects.push({ kind: 'close_peer' });
    if (audible) effects.push({ kind: 'hangup_tone' });
  }
  return effects;
}

/** One step of the call machine: the next view and what to do, in order. */
export function reduceCall(view: CallView, event: CallEvent): CallTransition {
  const next = step(view, event);
  if (!next) return { view, effects: [] };
  const muted = next.state.phase === 'idle' ? false : (next.muted ?? view.muted);
  // The step's own effects go first: a message is sent before the peer connection opens or closes,
  // and the channel is left before the call's microphone is captured.
  const effects = [
    ...(next.effects ?? []),
    ...phaseEffects(view.state, next.state, muted, next.audible ?? true),
  ];
  if (next.state === view.state && muted === view.muted) return { view, effects };
  return { view: { state: next.state, muted }, effects };
}

/** The m:ss timer of the active call screen (spec §2). */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}
