import { VOICE_CLOSE_CODES } from '../../../../../protocol/voice-signalling';
import type { VoiceDisconnectReason, VoiceRoomState } from './voice-transport';

/**
 * How the built-in SFU transport gets a live room back, as a pure machine: cheapest first. A
 * dropped signalling socket is resumed on a new socket while the peer connection keeps playing
 * (`signalReconnecting`, retried with backoff); a dropped peer connection gets a grace period,
 * then an ICE restart (`reconnecting`); if neither brings media back within `recoverWithinMs`, the
 * session is rejoined with the same token; if that fails, the room is lost. When the browser says
 * its network changed (`network`: back online, or a new connection type), the old ICE pairs are
 * presumed dead and ICE restarts at once, without the grace period: on a Wi-Fi → mobile hop the
 * voice is back as soon as the new path carries the checks. The transport feeds it
 * socket and peer events and timer ticks, and carries out the effects it returns.
 */
export type RecoveryPhase =
  /** Connected and healthy. */
  | 'live'
  /** The peer connection dropped; it may heal by itself before we restart ICE. */
  | 'grace'
  /** A resume is in flight on a new signalling socket. */
  | 'resuming'
  /** Waiting out the backoff before the next resume. */
  | 'waiting_retry'
  /** ICE restart asked for; waiting for the peer connection to come back. */
  | 'restarting_ice'
  /** A full rejoin with the same token is in flight. */
  | 'rejoining'
  /** Given up (or a final close); the transport is disconnected. */
  | 'finished';

export type RecoveryState = {
  phase: RecoveryPhase;
  /** When resume and ICE restart give way to a rejoin (ms since epoch). */
  deadline: number;
  /** The next resume's backoff. */
  backoffMs: number;
};

export type RecoveryTimer = 'grace' | 'retry' | 'deadline';

export type RecoveryEvent =
  | { type: 'peer'; state: RTCPeerConnectionState; now: number }
  | { type: 'socket_closed'; code: number; now: number }
  | { type: 'timer'; timer: RecoveryTimer; now: number }
  /** The resume answered `joined`; `peerConnected` is the peer connection's state right then. */
  | { type: 'resumed'; peerConnected: boolean; now: number }
  /** The resume socket closed before `joined` (with its close code) or timed out (null). */
  | { type: 'resume_failed'; code: number | null; now: number }
  | { type: 'rejoined' }
  | { type: 'rejoin_failed'; code: number | null }
  /** The browser's network changed (`online`, or a new connection type). */
  | { type: 'network'; now: number };

export type RecoveryEffect =
  | { kind: 'state'; state: VoiceRoomState }
  | { kind: 'start_timer'; timer: RecoveryTimer; ms: number }
  | { kind: 'cancel_timers' }
  /** Open a new signalling socket with `resume`, giving up after `withinMs`. */
  | { kind: 'resume'; withinMs: number }
  | { kind: 'restart_ice' }
  /** Drop the connection (without `leave`) and join again with the same token. */
  | { kind: 'rejoin' }
  | { kind: 'finish'; reason: VoiceDisconnectReason };

export type RecoveryOptions = {
  /** How long resume / ICE restart may take before falling back to a full rejoin. */
  recoverWithinMs: number;
  /** How long a 'disconnected' peer may recover by itself before we ask for an ICE restart. */
  iceGraceMs: number;
};

export const FIRST_RESUME_BACKOFF_MS = 250;
export const MAX_RESUME_BACKOFF_MS = 2000;

/** Close codes after which trying again with the same token is pointless. */
export const FINAL_CLOSE: Readonly<Record<number, VoiceDisconnectReason>> = {
  [VOICE_CLOSE_CODES.unauthorized]: 'unauthorized',
  [VOICE_CLOSE_CODES.unsupportedVersion]: 'unsupported_version',
  [VOICE_CLOSE_CODES.kicked]: 'kicked',
  [VOICE_CLOSE_CODES.roomClosed]: 'room_closed',
  [VOICE_CLOSE_CODES.replaced]: 'replaced',
};

/** Closes that end the server's session: resuming it cannot work, rejoining can. */
const REJOIN_CLOSE = new Set<number>([
  1000,
  VOICE_CLOSE_CODES.sessionExpired,
  VOICE_CLOSE_CODES.serverShutdown,
]);

export const LIVE: RecoveryState = {
  phase: 'live',
  deadline: 0,
  backoffMs: FIRST_RESUME_BACKOFF_MS,
};

export type RecoveryTransition = { state: RecoveryState; effects: RecoveryEffect[] };

const stay = (state: RecoveryState): RecoveryTransition => ({ state, effects: [] });

function finish(reason: VoiceDisconnectReason): RecoveryTransition {
  return {
    state: { ...LIVE, phase: 'finished' },
    effects: [{ kind: 'cancel_timers' }, { kind: 'finish', reason }],
  };
}

function live(): RecoveryTransition {
  return {
    state: LIVE,
    effects: [{ kind: 'cancel_timers' }, { kind: 'state', state: 'connected' }],
  };
}

function rejoin(): RecoveryTransition {
  return {
    state: { ...LIVE, phase: 'rejoining' },
    effects: [
      { kind: 'cancel_timers' },
      { kind: 'state', state: 'reconnecting' },
      { kind: 'rejoin' },
    ],
  };
}

function restartIce(deadline: number, now: number): RecoveryTransition {
  return {
    state: { phase: 'restarting_ice', deadline, backoffMs: FIRST_RESUME_BACKOFF_MS },
    effects: [
      { kind: 'cancel_timers' },
      { kind: 'state', state: 'reconnecting' },
      { kind: 'restart_ice' },
      { kind: 'start_timer', timer: 'deadline', ms: Math.max(1, deadline - now) },
    ],
  };
}

function resume(state: RecoveryState, now: number): RecoveryTransition {
  return {
    state: { ...state, phase: 'resuming' },
    effects: [
      { kind: 'state', state: 'signalReconnecting' },
      { kind: 'resume', withinMs: Math.max(1, state.deadline - now) },
    ],
  };
}

/** A signalling close while the room is up: final, rejoin, or resume. */
function socketClosed(code: number, now: number, options: RecoveryOptions): RecoveryTransition {
  const final = FINAL_CLOSE[code];
  if (final) return finish(final);
  if (REJOIN_CLOSE.has(code)) return rejoin();
  const started = resume(
    {
      phase: 'resuming',
      deadline: now + options.recoverWithinMs,
      backoffMs: FIRST_RESUME_BACKOFF_MS,
    },
    now,
  );
  return { state: started.state, effects: [{ kind: 'cancel_timers' }, ...started.effects] };
}

/** One step of recovery. Events that do not apply in the current phase change nothing. */
export function reduceRecovery(
  state: RecoveryState,
  event: RecoveryEvent,
  options: RecoveryOptions,
): RecoveryTransition {
  if (state.phase === 'finished') return stay(state);
  // A final close ends the room whatever recovery is doing.
  if (event.type === 'socket_closed' && FINAL_CLOSE[event.code])
    return finish(FINAL_CLOSE[event.code]!);

  switch (state.phase) {
    case 'live':
      if (event.type === 'socket_closed') return socketClosed(event.code, event.now, options);
      if (event.type === 'network')
        return restartIce(event.now + options.recoverWithinMs, event.now);
      if (event.type === 'peer' && event.state === 'failed')
        return restartIce(event.now + options.recoverWithinMs, event.now);
      if (event.type === 'peer' && event.state === 'disconnected')
        return {
          state: { ...state, phase: 'grace' },
          effects: [{ kind: 'start_timer', timer: 'grace', ms: options.iceGraceMs }],
        };
      return stay(state);

    case 'grace':
      if (event.type === 'peer' && event.state === 'connected')
        return { state: LIVE, effects: [{ kind: 'cancel_timers' }] };
      if (event.type === 'peer' && event.state === 'failed')
        return restartIce(event.now + options.recoverWithinMs, event.now);
      if ((event.type === 'timer' && event.timer === 'grace') || event.type === 'network')
        return restartIce(event.now + options.recoverWithinMs, event.now);
      if (event.type === 'socket_closed') return socketClosed(event.code, event.now, options);
      return stay(state);

    case 'resuming':
      if (event.type === 'resumed')
        return event.peerConnected ? live() : restartIce(state.deadline, event.now);
      if (event.type === 'resume_failed') {
        // 4xxx: the server no longer knows the session; only a rejoin can help.
        if (event.code !== null && event.code >= 4000) return rejoin();
        if (event.now + state.backoffMs >= state.deadline) return rejoin();
        return {
          state: {
            ...state,
            phase: 'waiting_retry',
            backoffMs: Math.min(state.backoffMs * 2, MAX_RESUME_BACKOFF_MS),
          },
          effects: [{ kind: 'start_timer', timer: 'retry', ms: state.backoffMs }],
        };
      }
      return stay(state);

    case 'waiting_retry':
      // Back online: the next resume need not wait out its backoff.
      if ((event.type === 'timer' && event.timer === 'retry') || event.type === 'network') {
        const next = resume(state, event.now);
        return { state: next.state, effects: [{ kind: 'cancel_timers' }, ...next.effects] };
      }
      return stay(state);

    case 'restarting_ice':
      if (event.type === 'peer' && event.state === 'connected') return live();
      // A restart begun on the old network gathered the old network's candidates: restart again,
      // within the same deadline.
      if (event.type === 'network') return { state, effects: [{ kind: 'restart_ice' }] };
      if (event.type === 'timer' && event.timer === 'deadline') return rejoin();
      return stay(state);

    case 'rejoining':
      if (event.type === 'rejoined') return live();
      if (event.type === 'rejoin_failed')
        return finish((event.code !== null && FINAL_CLOSE[event.code]) || 'connection_lost');
      return stay(state);
  }
}
