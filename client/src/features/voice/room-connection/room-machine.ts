import type { VoiceProviderName } from '../../../../../protocol/voice';
import type { VoiceDisconnectReason, VoiceRoomState } from '../transport/voice-transport';
import { MAX_RETRIES, retryDelayMs } from './backoff';
import { VOICE_ERRORS, notConfiguredMessage, tokenFailedMessage } from './messages';

/**
 * Spec §4 "Voice room connection" as a pure reducer: idle → startingSession → fetchingToken →
 * connecting → connected, with retries and teardown. It never touches the network; it returns
 * effects that `RoomController` carries out and feeds the results back as events tagged with the
 * attempt they belong to, so a late answer from an abandoned attempt can never move the machine.
 */

/** Who joins which room (spec §3 "Voice hook inputs" without the muted list). */
export type RoomTarget = { channelId: number; userId: string; userName: string };

export type RoomPhase =
  | 'idle'
  | 'startingSession'
  | 'fetchingToken'
  | 'connecting'
  | 'connected'
  /** Waiting for the backoff timer before the next attempt. */
  | 'waitingRetry'
  /** Gave up with `error`; stays so until the target changes or the room is disabled. */
  | 'stopped';

export type RoomMachineState = {
  phase: RoomPhase;
  /** Null while disabled. */
  target: RoomTarget | null;
  /** Bumped by every attempt and teardown; events carry it to prove they are current. */
  attempt: number;
  sessionId: string | null;
  /** Automatic retries used since the last successful connection. */
  retries: number;
  error: string | null;
  /** The transport's own state while connected (it may be recovering by itself). */
  transportState: VoiceRoomState;
};

export const initialRoomState: RoomMachineState = {
  phase: 'idle',
  target: null,
  attempt: 0,
  sessionId: null,
  retries: 0,
  error: null,
  transportState: 'disconnected',
};

/** Why an attempt failed, already classified by the controller. */
export type AttemptFailure =
  /** Session start answered 429; `message` is the response's message field when it had one. */
  | { kind: 'overLimit'; message?: string }
  | { kind: 'sessionFailed' }
  /** `provider` as the refusal named it, when it did. */
  | { kind: 'tokenFailed'; statusText: string; provider?: VoiceProviderName }
  | { kind: 'notConfigured'; provider: VoiceProviderName }
  /** A timeout or an abort (token request after 10 s, connect after 15 s). */
  | { kind: 'timeout' }
  /** fetch rejected, or the voice socket could not be reached. */
  | { kind: 'network' }
  | { kind: 'failed' };

export type RoomEvent =
  /** Null disables the room; a different target starts over in the new room. */
  | { type: 'configure'; target: RoomTarget | null }
  | { type: 'session_started'; attempt: number; sessionId: string }
  | {
      type: 'token_received';
      attempt: number;
      provider: VoiceProviderName;
      url: string;
      token: string;
    }
  | { type: 'room_connected'; attempt: number }
  | { type: 'attempt_failed'; attempt: number; failure: AttemptFailure }
  | { type: 'transport_state'; attempt: number; state: VoiceRoomState }
  /** The transport gave up by itself (not our disconnect). */
  | { type: 'room_lost'; attempt: number; reason: VoiceDisconnectReason }
  | { type: 'retry_due'; attempt: number }
  | { type: 'microphone_failed'; message: string };

export type RoomEffect =
  | { kind: 'startSession'; attempt: number; channelId: number }
  | { kind: 'fetchToken'; attempt: number; target: RoomTarget }
  | { kind: 'connect'; attempt: number; provider: VoiceProviderName; url: string; token: string }
  /** Disconnect the transport that belongs to `attempt`, if there is one. */
  | { kind: 'disconnect'; attempt: number }
  | { kind: 'endSession'; sessionId: string }
  | { kind: 'scheduleRetry'; attempt: number; delayMs: number }
  | { kind: 'cancelRetry' };

export type RoomTransition = { state: RoomMachineState; effects: RoomEffect[] };

const RETRYABLE_FAILURES = new Set<AttemptFailure['kind']>(['timeout', 'network']);
/** Losses that a fresh attempt can fix; the others (kicked, token refused...) would fail again. */
const RETRYABLE_LOSSES = new Set<VoiceDisconnectReason>(['connection_lost', 'room_closed']);

export function failureMessage(failure: AttemptFailure): string {
  switch (failure.kind) {
    case 'overLimit':
      return failure.message || VOICE_ERRORS.freeTierLimit;
    case 'sessionFailed':
      return VOICE_ERRORS.usageTracking;
    case 'tokenFailed':
      return tokenFailedMessage(failure.statusText, failure.provider);
    case 'notConfigured':
      return notConfiguredMessage(failure.provider);
    case 'timeout':
      return VOICE_ERRORS.timedOut;
    case 'network':
      return VOICE_ERRORS.network;
    case 'failed':
      return VOICE_ERRORS.connectFailed;
  }
}

function sameTarget(a: RoomTarget | null, b: RoomTarget | null): boolean {
  return (
    a === b ||
    (a !== null &&
      b !== null &&
      a.channelId === b.channelId &&
      a.userId === b.userId &&
      a.userName === b.userName)
  );
}

/** Leaves whatever the current attempt holds: retry timer, room, usage session. */
function release(state: RoomMachineState): RoomEffect[] {
  const effects: RoomEffect[] = [];
  if (state.phase === 'waitingRetry') effects.push({ kind: 'cancelRetry' });
  if (state.phase === 'connecting' || state.phase === 'connected')
    effects.push({ kind: 'disconnect', attempt: state.attempt });
  if (state.sessionId !== null) effects.push({ kind: 'endSession', sessionId: state.sessionId });
  return effects;
}

function startAttempt(state: RoomMachineState, target: RoomTarget): RoomTransition {
  const attempt = state.attempt + 1;
  return {
    state: {
      ...state,
      phase: 'startingSession',
      target,
      attempt,
      sessionId: null,
      transportState: 'disconnected',
    },
    effects: [{ kind: 'startSession', attempt, channelId: target.channelId }],
  };
}

/** After a failure or a loss: wait and try again while retries remain, else stop with `error`. */
function retryOrStop(
  state: RoomMachineState,
  retryable: boolean,
  error: string | null,
  released: RoomEffect[],
): RoomTransition {
  const base = { ...state, sessionId: null, transportState: 'disconnected' as const, error };
  if (retryable && state.retries < MAX_RETRIES) {
    return {
      state: { ...base, phase: 'waitingRetry', retries: state.retries + 1 },
      effects: [
        ...released,
        { kind: 'scheduleRetry', attempt: state.attempt, delayMs: retryDelayMs(state.retries) },
      ],
    };
  }
  return { state: { ...base, phase: 'stopped' }, effects: released };
}

function configure(state: RoomMachineState, target: RoomTarget | null): RoomTransition {
  if (sameTarget(state.target, target)) return { state, effects: [] };
  const effects = release(state);
  const cleared: RoomMachineState = {
    ...state,
    phase: 'idle',
    target: null,
    attempt: state.attempt + 1,
    sessionId: null,
    retries: 0,
    error: null,
    transportState: 'disconnected',
  };
  if (target === null) return { state: cleared, effects };
  const started = startAttempt(cleared, target);
  return { state: started.state, effects: [...effects, ...started.effects] };
}

/** One step of the machine. Events of an earlier attempt only ever clean up after themselves. */
export function reduceRoom(state: RoomMachineState, event: RoomEvent): RoomTransition {
  const none = { state, effects: [] };
  switch (event.type) {
    case 'configure':
      return configure(state, event.target);
    case 'session_started':
      if (event.attempt !== state.attempt || state.phase !== 'startingSession' || !state.target)
        // Disabled meanwhile: the server started metering anyway, so stop it at once.
        return { state, effects: [{ kind: 'endSession', sessionId: event.sessionId }] };
      return {
        state: { ...state, phase: 'fetchingToken', sessionId: event.sessionId },
        effects: [{ kind: 'fetchToken', attempt: state.attempt, target: state.target }],
      };
    case 'token_received':
      if (event.attempt !== state.attempt || state.phase !== 'fetchingToken') return none;
      return {
        state: { ...state, phase: 'connecting', transportState: 'connecting' },
        effects: [
          {
            kind: 'connect',
            attempt: state.attempt,
            provider: event.provider,
            url: event.url,
            token: event.token,
          },
        ],
      };
    case 'room_connected':
      if (event.attempt !== state.attempt || state.phase !== 'connecting')
        return { state, effects: [{ kind: 'disconnect', attempt: event.attempt }] };
      return {
        state: {
          ...state,
          phase: 'connected',
          error: null,
          retries: 0,
          transportState: 'connected',
        },
        effects: [],
      };
    case 'attempt_failed': {
      if (event.attempt !== state.attempt) return none;
      if (!['startingSession', 'fetchingToken', 'connecting'].includes(state.phase)) return none;
      const failure = event.failure;
      return retryOrStop(
        state,
        RETRYABLE_FAILURES.has(failure.kind),
        failureMessage(failure),
        release(state),
      );
    }
    case 'transport_state':
      if (event.attempt !== state.attempt || state.phase !== 'connected') return none;
      return { state: { ...state, transportState: event.state }, effects: [] };
    case 'room_lost': {
      if (event.attempt !== state.attempt || state.phase !== 'connected') return none;
      const retryable = RETRYABLE_LOSSES.has(event.reason);
      const released: RoomEffect[] =
        state.sessionId === null ? [] : [{ kind: 'endSession', sessionId: state.sessionId }];
      const next = retryOrStop(state, retryable, null, released);
      // Out of retries, or not worth retrying: say so instead of silently sitting there.
      if (next.state.phase === 'stopped')
        next.state = { ...next.state, error: VOICE_ERRORS.connectFailed };
      return next;
    }
    case 'retry_due':
      if (event.attempt !== state.attempt || state.phase !== 'waitingRetry' || !state.target)
        return none;
      return startAttempt(state, state.target);
    case 'microphone_failed':
      if (state.phase !== 'connected') return none;
      return { state: { ...state, error: event.message }, effects: [] };
  }
}

/** The spec's room state for rendering: what the user experiences, not the internal phase. */
export function roomStateOf(state: RoomMachineState): VoiceRoomState {
  switch (state.phase) {
    case 'startingSession':
    case 'fetchingToken':
    case 'connecting':
      return 'connecting';
    case 'connected':
      return state.transportState;
    case 'waitingRetry':
      return 'reconnecting';
    case 'idle':
    case 'stopped':
      return 'disconnected';
  }
}

/**
 * Spec §4's "connected flag": set when the room connects, cleared when it is lost. A transport
 * recovering by itself (ICE restart, socket resume) stays connected; `roomStateOf` shows that.
 */
export function isRoomConnected(state: RoomMachineState): boolean {
  return state.phase === 'connected';
}
