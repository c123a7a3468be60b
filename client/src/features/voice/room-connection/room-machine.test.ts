import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './backoff';
import {
  initialRoomState,
  isRoomConnected,
  reduceRoom,
  roomStateOf,
  type AttemptFailure,
  type RoomEvent,
  type RoomMachineState,
  type RoomTarget,
} from './room-machine';

const target: RoomTarget = { channelId: 7, userId: 'u1', userName: 'Ava Tester' };

/** Runs events in order and returns the final transition. */
function run(events: RoomEvent[], from: RoomMachineState = initialRoomState) {
  let state = from;
  let effects: ReturnType<typeof reduceRoom>['effects'] = [];
  for (const event of events) ({ state, effects } = reduceRoom(state, event));
  return { state, effects };
}

const grant = (attempt: number): RoomEvent => ({
  type: 'token_received',
  attempt,
  provider: 'embedded',
  url: 'ws://x/rtc',
  token: 't',
});

/** Enabled and connected on attempt 2 (configure bumps once for the teardown, once to start). */
function connected() {
  return run([
    { type: 'configure', target },
    { type: 'session_started', attempt: 2, sessionId: 's1' },
    grant(2),
    { type: 'room_connected', attempt: 2 },
  ]);
}

describe('voice room machine: the happy path', () => {
  it('starts a usage session when enabled', () => {
    const { state, effects } = run([{ type: 'configure', target }]);
    expect(state.phase).toBe('startingSession');
    expect(roomStateOf(state)).toBe('connecting');
    expect(effects).toEqual([{ kind: 'startSession', attempt: 2, channelId: 7 }]);
  });

  it('fetches the token once the session started', () => {
    const { state, effects } = run([
      { type: 'configure', target },
      { type: 'session_started', attempt: 2, sessionId: 's1' },
    ]);
    expect(state).toMatchObject({ phase: 'fetchingToken', sessionId: 's1' });
    expect(effects).toEqual([{ kind: 'fetchToken', attempt: 2, target }]);
  });

  it('connects with the granted url and token', () => {
    const { state, effects } = run([
      { type: 'configure', target },
      { type: 'session_started', attempt: 2, sessionId: 's1' },
      grant(2),
    ]);
    expect(state.phase).toBe('connecting');
    expect(effects).toEqual([
      { kind: 'connect', attempt: 2, provider: 'embedded', url: 'ws://x/rtc', token: 't' },
    ]);
  });

  it('is connected with the error cleared and the retry counter reset', () => {
    const before = { ...initialRoomState, retries: 2, error: 'old' };
    const { state } = run(
      [
        { type: 'configure', target },
        { type: 'session_started', attempt: 2, sessionId: 's1' },
        grant(2),
        { type: 'room_connected', attempt: 2 },
      ],
      before,
    );
    expect(state).toMatchObject({ phase: 'connected', error: null, retries: 0 });
    expect(isRoomConnected(state)).toBe(true);
    expect(roomStateOf(state)).toBe('connected');
  });

  it('shows the transport recovering by itself without dropping the connected flag', () => {
    const { state } = run(
      [{ type: 'transport_state', attempt: 2, state: 'signalReconnecting' }],
      connected().state,
    );
    expect(roomStateOf(state)).toBe('signalReconnecting');
    expect(isRoomConnected(state)).toBe(true);
  });
});

describe('voice room machine: one attempt at a time', () => {
  it('ignores the same target again while an attempt is in flight', () => {
    const first = run([{ type: 'configure', target }]);
    const again = reduceRoom(first.state, { type: 'configure', target: { ...target } });
    expect(again.effects).toEqual([]);
    expect(again.state).toBe(first.state);
  });

  it('ignores answers of an abandoned attempt, ending a session it started late', () => {
    const disabled = run([
      { type: 'configure', target },
      { type: 'configure', target: null },
    ]).state;
    const late = reduceRoom(disabled, { type: 'session_started', attempt: 2, sessionId: 'late' });
    expect(late.state).toBe(disabled);
    expect(late.effects).toEqual([{ kind: 'endSession', sessionId: 'late' }]);
    expect(reduceRoom(disabled, grant(2)).effects).toEqual([]);
  });

  it('disconnects a room that connects for an abandoned attempt', () => {
    const { state } = run([
      { type: 'configure', target },
      { type: 'session_started', attempt: 2, sessionId: 's1' },
      grant(2),
      { type: 'configure', target: null },
    ]);
    expect(reduceRoom(state, { type: 'room_connected', attempt: 2 }).effects).toEqual([
      { kind: 'disconnect', attempt: 2 },
    ]);
  });

  it('moves to another channel by leaving the first room completely', () => {
    const { state, effects } = run(
      [{ type: 'configure', target: { ...target, channelId: 8 } }],
      connected().state,
    );
    expect(effects).toEqual([
      { kind: 'disconnect', attempt: 2 },
      { kind: 'endSession', sessionId: 's1' },
      { kind: 'startSession', attempt: 4, channelId: 8 },
    ]);
    expect(state.phase).toBe('startingSession');
  });
});

describe('voice room machine: disabled', () => {
  it('disconnects an existing room and ends its session', () => {
    const { state, effects } = run([{ type: 'configure', target: null }], connected().state);
    expect(effects).toEqual([
      { kind: 'disconnect', attempt: 2 },
      { kind: 'endSession', sessionId: 's1' },
    ]);
    expect(state).toMatchObject({ phase: 'idle', sessionId: null, error: null });
    expect(isRoomConnected(state)).toBe(false);
  });

  it('cancels a pending retry', () => {
    const waiting = run(
      [{ type: 'room_lost', attempt: 2, reason: 'connection_lost' }],
      connected().state,
    );
    const { state, effects } = run([{ type: 'configure', target: null }], waiting.state);
    expect(effects).toEqual([{ kind: 'cancelRetry' }]);
    expect(state.phase).toBe('idle');
    // The timer firing anyway changes nothing.
    expect(reduceRoom(state, { type: 'retry_due', attempt: waiting.state.attempt }).state).toBe(
      state,
    );
  });

  it('ends the session when disabled while fetching the token', () => {
    const { effects } = run([
      { type: 'configure', target },
      { type: 'session_started', attempt: 2, sessionId: 's1' },
      { type: 'configure', target: null },
    ]);
    expect(effects).toEqual([{ kind: 'endSession', sessionId: 's1' }]);
  });
});

describe('voice room machine: disconnect and reconnect', () => {
  it('ends the session and retries after 3000 ms, then 6000 ms, at most twice', () => {
    const lost = run(
      [{ type: 'room_lost', attempt: 2, reason: 'connection_lost' }],
      connected().state,
    );
    expect(isRoomConnected(lost.state)).toBe(false);
    expect(roomStateOf(lost.state)).toBe('reconnecting');
    expect(lost.effects).toEqual([
      { kind: 'endSession', sessionId: 's1' },
      { kind: 'scheduleRetry', attempt: 2, delayMs: 3000 },
    ]);

    const retry1 = run([{ type: 'retry_due', attempt: 2 }], lost.state);
    expect(retry1.effects).toEqual([{ kind: 'startSession', attempt: 3, channelId: 7 }]);

    const failed1 = run(
      [
        { type: 'session_started', attempt: 3, sessionId: 's2' },
        { type: 'attempt_failed', attempt: 3, failure: { kind: 'network' } },
      ],
      retry1.state,
    );
    expect(failed1.effects).toEqual([
      { kind: 'endSession', sessionId: 's2' },
      { kind: 'scheduleRetry', attempt: 3, delayMs: 6000 },
    ]);
    expect(failed1.state.error).toBe('Network error - please check your internet connection');

    const failed2 = run(
      [
        { type: 'retry_due', attempt: 3 },
        { type: 'attempt_failed', attempt: 4, failure: { kind: 'timeout' } },
      ],
      failed1.state,
    );
    expect(failed2.effects).toEqual([]);
    expect(failed2.state).toMatchObject({
      phase: 'stopped',
      error: 'Connection timed out - please check your internet connection and try again',
    });
  });

  it('resets the retries once a retry connects', () => {
    const lost = run(
      [{ type: 'room_lost', attempt: 2, reason: 'connection_lost' }],
      connected().state,
    );
    const back = run(
      [
        { type: 'retry_due', attempt: 2 },
        { type: 'session_started', attempt: 3, sessionId: 's2' },
        grant(3),
        { type: 'room_connected', attempt: 3 },
      ],
      lost.state,
    );
    expect(back.state).toMatchObject({ phase: 'connected', retries: 0 });
  });

  it('does not retry a loss that would fail again, and says so', () => {
    const { state, effects } = run(
      [{ type: 'room_lost', attempt: 2, reason: 'kicked' }],
      connected().state,
    );
    expect(effects).toEqual([{ kind: 'endSession', sessionId: 's1' }]);
    expect(state).toMatchObject({ phase: 'stopped', error: 'Failed to connect to voice room' });
  });

  it('ignores a loss reported by an older transport', () => {
    const { state } = connected();
    expect(
      reduceRoom(state, { type: 'room_lost', attempt: 1, reason: 'connection_lost' }).state,
    ).toBe(state);
  });
});

describe('voice room machine: failures and their messages', () => {
  const failAt = (phaseEvents: RoomEvent[], failure: AttemptFailure) =>
    run([
      { type: 'configure', target },
      ...phaseEvents,
      { type: 'attempt_failed', attempt: 2, failure },
    ]);

  it('429 at session start: the response message, no connection, no retry', () => {
    const { state, effects } = failAt([], {
      kind: 'overLimit',
      message: 'Free tier limit exceeded - cannot connect',
    });
    expect(state).toMatchObject({
      phase: 'stopped',
      error: 'Free tier limit exceeded - cannot connect',
    });
    expect(effects).toEqual([]);
  });

  it('429 without a message falls back to the spec text', () => {
    expect(failAt([], { kind: 'overLimit' }).state.error).toBe(
      'Free tier limit exceeded - cannot connect',
    );
  });

  it('other session failures block for safety', () => {
    const { state, effects } = failAt([], { kind: 'sessionFailed' });
    expect(state).toMatchObject({
      phase: 'stopped',
      error: 'Failed to start usage tracking - connection blocked for safety',
    });
    expect(effects).toEqual([]);
  });

  const afterSession: RoomEvent[] = [{ type: 'session_started', attempt: 2, sessionId: 's1' }];

  it('a failed token request names the provider and the status text, ends the session, stops', () => {
    const { state, effects } = failAt(afterSession, {
      kind: 'tokenFailed',
      statusText: 'Forbidden',
      provider: 'LiveKit',
    });
    expect(state).toMatchObject({
      phase: 'stopped',
      error: 'Failed to get LiveKit token: Forbidden',
    });
    expect(
      failAt(afterSession, { kind: 'tokenFailed', statusText: 'Forbidden', provider: 'embedded' })
        .state.error,
    ).toBe('Failed to get built-in voice token: Forbidden');
    expect(effects).toEqual([{ kind: 'endSession', sessionId: 's1' }]);
  });

  it('an unconfigured provider stops with the configuration message', () => {
    const { state } = failAt(afterSession, { kind: 'notConfigured', provider: 'LiveKit' });
    expect(state).toMatchObject({
      phase: 'stopped',
      error: 'Voice features require LiveKit configuration',
    });
  });

  it('a token timeout retries after 3000 ms', () => {
    const { state, effects } = failAt(afterSession, { kind: 'timeout' });
    expect(state).toMatchObject({
      phase: 'waitingRetry',
      retries: 1,
      error: 'Connection timed out - please check your internet connection and try again',
    });
    expect(effects).toEqual([
      { kind: 'endSession', sessionId: 's1' },
      { kind: 'scheduleRetry', attempt: 2, delayMs: 3000 },
    ]);
  });

  it('a failed connect disconnects the transport, ends the session and stops', () => {
    const { state, effects } = failAt([...afterSession, grant(2)], { kind: 'failed' });
    expect(state).toMatchObject({ phase: 'stopped', error: 'Failed to connect to voice room' });
    expect(effects).toEqual([
      { kind: 'disconnect', attempt: 2 },
      { kind: 'endSession', sessionId: 's1' },
    ]);
  });

  it('a network failure while connecting retries', () => {
    const { state } = failAt([...afterSession, grant(2)], { kind: 'network' });
    expect(state).toMatchObject({
      phase: 'waitingRetry',
      error: 'Network error - please check your internet connection',
    });
  });

  it('a microphone failure shows while connected and changes nothing else', () => {
    const message = 'Microphone access denied - please allow microphone permissions';
    const { state, effects } = run([{ type: 'microphone_failed', message }], connected().state);
    expect(state).toMatchObject({ phase: 'connected', error: message });
    expect(effects).toEqual([]);
    expect(reduceRoom(initialRoomState, { type: 'microphone_failed', message }).state).toBe(
      initialRoomState,
    );
  });

  it('going offline and online again starts over without the old error', () => {
    const stopped = failAt([], { kind: 'sessionFailed' }).state;
    const { state } = run(
      [
        { type: 'configure', target: null },
        { type: 'configure', target },
      ],
      stopped,
    );
    expect(state).toMatchObject({ phase: 'startingSession', error: null, retries: 0 });
  });
});

describe('retry delay', () => {
  it('starts at 3000 ms, doubles and is capped at 10000 ms', () => {
    expect([0, 1, 2, 3].map(retryDelayMs)).toEqual([3000, 6000, 10000, 10000]);
  });
});
