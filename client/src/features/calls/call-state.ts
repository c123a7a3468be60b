/**
 * The call lifecycle (spec §4 "Calls"), as a pure reducer: idle → outgoing (ringing, as initiator)
 * or incoming → active → (minimized ⇄ restored) → idle. Side effects (socket, peer connection, tones,
 * toasts) live in the controller, which reads the transitions; React only renders the state.
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

/** Why a call left the screen; the controller turns it into a toast and the hangup tone. */
export type EndCause =
  'hangup' | 'remote_ended' | 'declined' | 'missed' | 'answered_elsewhere' | 'failed';

export type CallEvent =
  | { type: 'start'; call: CallInfo }
  | { type: 'incoming'; call: CallInfo }
  | { type: 'accept'; now: number }
  | { type: 'remote_accepted'; callId: string; now: number }
  | { type: 'end'; callId: string; cause: EndCause }
  | { type: 'minimize' }
  | { type: 'restore' }
  | { type: 'media'; callId: string; status: MediaStatus };

export const IDLE: CallState = { phase: 'idle' };

export function currentCall(state: CallState): CallInfo | null {
  return state.phase === 'idle' ? null : state.call;
}

/** A call is active (for the channel voice) from placing or accepting it until it ends. */
export function isCallActive(state: CallState): boolean {
  return state.phase === 'outgoing' || state.phase === 'active';
}

export function callReducer(state: CallState, event: CallEvent): CallState {
  switch (event.type) {
    case 'start':
      return state.phase === 'idle'
        ? { phase: 'outgoing', call: event.call, minimized: false, media: 'connecting' }
        : state;
    case 'incoming':
      return state.phase === 'idle' ? { phase: 'incoming', call: event.call } : state;
    case 'accept':
      return state.phase === 'incoming'
        ? {
            phase: 'active',
            call: state.call,
            minimized: false,
            media: 'connecting',
            startedAt: event.now,
          }
        : state;
    case 'remote_accepted':
      return state.phase === 'outgoing' && state.call.callId === event.callId
        ? {
            phase: 'active',
            call: state.call,
            minimized: state.minimized,
            media: state.media,
            startedAt: event.now,
          }
        : state;
    case 'end':
      return currentCall(state)?.callId === event.callId ? IDLE : state;
    case 'minimize':
    case 'restore':
      if (state.phase !== 'outgoing' && state.phase !== 'active') return state;
      return { ...state, minimized: event.type === 'minimize' };
    case 'media':
      if (state.phase !== 'outgoing' && state.phase !== 'active') return state;
      return state.call.callId === event.callId ? { ...state, media: event.status } : state;
  }
}

/** The m:ss timer of the active call screen (spec §2). */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}
