// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { VOICE_CLOSE_CODES } from '../../../../../protocol/voice-signalling';
import { LIVE, reduceRecovery, type RecoveryEvent, type RecoveryState } from './sfu-recovery';

const options = { recoverWithinMs: 10_000, iceGraceMs: 2000 };

function run(state: RecoveryState, ...events: RecoveryEvent[]) {
  const effects = [];
  for (const event of events) {
    const step = reduceRecovery(state, event, options);
    state = step.state;
    effects.push(...step.effects);
  }
  return { state, effects };
}

const kinds = (effects: { kind: string }[]) => effects.map((e) => e.kind);
const states = (effects: { kind: string; state?: string }[]) =>
  effects.filter((e) => e.kind === 'state').map((e) => e.state);

describe('SFU recovery', () => {
  it('resumes a dropped signalling socket and is live again when the peer never dropped', () => {
    const dropped = run(LIVE, { type: 'socket_closed', code: 1006, now: 0 });
    expect(dropped.state.phase).toBe('resuming');
    expect(dropped.effects).toContainEqual({ kind: 'resume', withinMs: 10_000 });
    expect(states(dropped.effects)).toEqual(['signalReconnecting']);
    const back = run(dropped.state, { type: 'resumed', peerConnected: true, now: 500 });
    expect(back.state).toEqual(LIVE);
    expect(states(back.effects)).toEqual(['connected']);
  });

  it('retries the resume with doubling backoff up to 2 s, then rejoins at the deadline', () => {
    let { state } = run(LIVE, { type: 'socket_closed', code: 1006, now: 0 });
    const waits: number[] = [];
    let now = 0;
    while (state.phase === 'resuming') {
      now += 100;
      const failed = run(state, { type: 'resume_failed', code: 1006, now });
      state = failed.state;
      const timer = failed.effects.find((e) => e.kind === 'start_timer');
      if (!timer || timer.kind !== 'start_timer') break;
      waits.push(timer.ms);
      now += timer.ms;
      state = run(state, { type: 'timer', timer: 'retry', now }).state;
    }
    expect(waits.slice(0, 5)).toEqual([250, 500, 1000, 2000, 2000]);
    expect(state.phase).toBe('rejoining');
  });

  it('rejoins at once when the server no longer knows the session', () => {
    const { state } = run(LIVE, { type: 'socket_closed', code: 1006, now: 0 });
    const gone = run(state, { type: 'resume_failed', code: 4404, now: 10 });
    expect(gone.state.phase).toBe('rejoining');
    expect(kinds(gone.effects)).toEqual(['cancel_timers', 'state', 'rejoin']);
    expect(
      run(LIVE, { type: 'socket_closed', code: VOICE_CLOSE_CODES.serverShutdown, now: 0 }).state
        .phase,
    ).toBe('rejoining');
  });

  it('gives a dropped peer a grace period, then restarts ICE, then rejoins when media stays away', () => {
    const dropped = run(LIVE, { type: 'peer', state: 'disconnected', now: 0 });
    expect(dropped.state.phase).toBe('grace');
    expect(dropped.effects).toEqual([{ kind: 'start_timer', timer: 'grace', ms: 2000 }]);
    expect(run(dropped.state, { type: 'peer', state: 'connected', now: 1000 }).state).toEqual(LIVE);

    const restarting = run(dropped.state, { type: 'timer', timer: 'grace', now: 2000 });
    expect(restarting.state.phase).toBe('restarting_ice');
    expect(kinds(restarting.effects)).toContain('restart_ice');
    expect(states(restarting.effects)).toEqual(['reconnecting']);
    expect(run(restarting.state, { type: 'peer', state: 'connected', now: 3000 }).state).toEqual(
      LIVE,
    );
    expect(
      run(restarting.state, { type: 'timer', timer: 'deadline', now: 12_000 }).state.phase,
    ).toBe('rejoining');
  });

  it('restarts ICE at once when the peer failed outright', () => {
    const failed = run(LIVE, { type: 'peer', state: 'failed', now: 0 });
    expect(failed.state.phase).toBe('restarting_ice');
  });

  it('a resumed socket with a dead peer goes on to an ICE restart within the same deadline', () => {
    const { state } = run(LIVE, { type: 'socket_closed', code: 1006, now: 0 });
    const resumed = run(state, { type: 'resumed', peerConnected: false, now: 4000 });
    expect(resumed.state.phase).toBe('restarting_ice');
    expect(resumed.effects).toContainEqual({ kind: 'start_timer', timer: 'deadline', ms: 6000 });
  });

  it('ends the room on a final close, whatever it was doing, and after a failed rejoin', () => {
    const kicked = run(LIVE, { type: 'socket_closed', code: VOICE_CLOSE_CODES.kicked, now: 0 });
    expect(kicked.state.phase).toBe('finished');
    expect(kicked.effects).toContainEqual({ kind: 'finish', reason: 'kicked' });
    const { state } = run(LIVE, { type: 'peer', state: 'failed', now: 0 });
    const closed = run(state, {
      type: 'socket_closed',
      code: VOICE_CLOSE_CODES.roomClosed,
      now: 10,
    });
    expect(closed.effects).toContainEqual({ kind: 'finish', reason: 'room_closed' });

    const rejoining = run(LIVE, { type: 'socket_closed', code: 1000, now: 0 }).state;
    expect(run(rejoining, { type: 'rejoin_failed', code: null }).effects).toContainEqual({
      kind: 'finish',
      reason: 'connection_lost',
    });
    expect(
      run(rejoining, { type: 'rejoin_failed', code: VOICE_CLOSE_CODES.unauthorized }).effects,
    ).toContainEqual({ kind: 'finish', reason: 'unauthorized' });
    expect(run(rejoining, { type: 'rejoined' }).state).toEqual(LIVE);
  });

  it('ignores events that do not apply, and everything once finished', () => {
    const rejoining = run(LIVE, { type: 'socket_closed', code: 1000, now: 0 }).state;
    expect(run(rejoining, { type: 'peer', state: 'disconnected', now: 1 }).state).toBe(rejoining);
    const finished = run(LIVE, {
      type: 'socket_closed',
      code: VOICE_CLOSE_CODES.kicked,
      now: 0,
    }).state;
    expect(run(finished, { type: 'socket_closed', code: 1006, now: 1 })).toEqual({
      state: finished,
      effects: [],
    });
  });

  it('restarts ICE at once when the browser changes network, without waiting out the grace', () => {
    const live = run(LIVE, { type: 'network', now: 0 });
    expect(live.state.phase).toBe('restarting_ice');
    expect(kinds(live.effects)).toContain('restart_ice');
    expect(states(live.effects)).toEqual(['reconnecting']);
    const inGrace = run(
      LIVE,
      { type: 'peer', state: 'disconnected', now: 0 },
      { type: 'network', now: 100 },
    );
    expect(inGrace.state.phase).toBe('restarting_ice');
    expect(kinds(inGrace.effects)).toContain('restart_ice');
  });

  it('a second network change during a restart restarts again within the same deadline', () => {
    const first = run(LIVE, { type: 'network', now: 0 });
    const again = run(first.state, { type: 'network', now: 300 });
    expect(again.state).toEqual(first.state);
    expect(kinds(again.effects)).toEqual(['restart_ice']);
    const back = run(again.state, { type: 'peer', state: 'connected', now: 600 });
    expect(back.state).toEqual(LIVE);
  });

  it('back online, a resume waiting out its backoff is tried at once', () => {
    const dropped = run(LIVE, { type: 'socket_closed', code: 1006, now: 0 });
    const failed = run(dropped.state, { type: 'resume_failed', code: 1006, now: 100 });
    expect(failed.state.phase).toBe('waiting_retry');
    const online = run(failed.state, { type: 'network', now: 150 });
    expect(online.state.phase).toBe('resuming');
    expect(kinds(online.effects)).toEqual(['cancel_timers', 'state', 'resume']);
  });
});
