// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { isFullDuplexConnected, TOASTS } from './online-state';
import {
  initialPresenceState,
  reducePresence,
  wantsToTransmit,
  type PresenceEvent,
  type PresenceState,
} from './presence-state';
import { isHeld, isSelfMuted } from './transmit-gate';

/** Runs events from a state; returns the final state and every effect in order. */
function run(state: PresenceState, ...events: PresenceEvent[]) {
  const effects = [];
  for (const event of events) {
    const step = reducePresence(state, event);
    state = step.state;
    effects.push(...step.effects);
  }
  return { state, effects };
}

const sent = (type: string, channelId: number) => ({ kind: 'send', message: { type, channelId } });
const joined = (channelId: number, listening: boolean) => ({
  kind: 'send',
  message: { type: 'join_channel', channelId, listening },
});
const shown = (toast: object) => ({ kind: 'toast', toast });
const onAir: PresenceEvent = { type: 'voice', onAir: true };

/** Socket open, channel 7 joined, offline. */
const ready = run(
  initialPresenceState,
  { type: 'socket', open: true },
  { type: 'select_channel', channelId: 7 },
).state;
/** Online in channel 7, the voice room carrying the microphone. */
const online = run(ready, { type: 'toggle_online' }, onAir).state;

describe('channel socket membership', () => {
  it('joins the selected channel, not listening, once the socket opens, not before', () => {
    const selected = run(initialPresenceState, { type: 'select_channel', channelId: 7 });
    expect(selected.effects).toEqual([]);
    expect(run(selected.state, { type: 'socket', open: true }).effects).toEqual([joined(7, false)]);
  });

  it('leaves the old channel and joins the new one on a switch', () => {
    expect(run(ready, { type: 'select_channel', channelId: 8 }).effects).toEqual([
      sent('leave_channel', 7),
      joined(8, false),
    ]);
  });

  it('leaves when the selection is cleared or the session ends', () => {
    expect(run(ready, { type: 'select_channel', channelId: null }).effects).toEqual([
      sent('leave_channel', 7),
    ]);
    expect(run(ready, { type: 'detach' }).effects).toEqual([sent('leave_channel', 7)]);
  });

  it('rejoins after every reconnect and sends nothing while closed', () => {
    const dropped = run(ready, { type: 'socket', open: false });
    expect(dropped.effects).toEqual([]);
    const switched = run(dropped.state, { type: 'select_channel', channelId: 9 });
    expect(switched.effects).toEqual([]);
    expect(run(switched.state, { type: 'socket', open: true }).effects).toEqual([joined(9, false)]);
  });
});

describe('voice online state', () => {
  it('goes online listening, toasts Online, and talks once the voice is on the air', () => {
    const { state, effects } = run(ready, { type: 'toggle_online' });
    expect(state).toMatchObject({ online: true, talking: false });
    expect(state.gate.state).toBe('open');
    expect(wantsToTransmit(state)).toBe(true);
    expect(effects).toEqual([joined(7, true), shown(TOASTS.online)]);
    expect(TOASTS.online).toEqual({ title: 'Online', description: 'Connecting to voice...' });
    expect(isFullDuplexConnected(state)).toBe(true);
    const live = run(state, onAir);
    expect(live.state.talking).toBe(true);
    expect(live.effects).toEqual([sent('start_talking', 7)]);
  });

  it('never says talking while the voice is refused (429, not configured, no microphone)', () => {
    const refused = run(ready, { type: 'toggle_online' }, { type: 'voice', onAir: false });
    expect(refused.state.talking).toBe(false);
    expect(refused.effects.filter((e) => e.kind === 'send')).toEqual([joined(7, true)]);
    const lost = run(online, { type: 'voice', onAir: false });
    expect(lost.state.talking).toBe(false);
    expect(lost.effects).toEqual([sent('stop_talking', 7)]);
  });

  it('goes offline: stops talking before no longer listening, unmutes, toasts Offline', () => {
    const muted = run(online, { type: 'toggle_self_mute' }).state;
    const { state, effects } = run(muted, { type: 'toggle_online' });
    expect(state).toMatchObject({ online: false, talking: false });
    expect(isSelfMuted(state.gate)).toBe(false);
    expect(effects).toEqual([joined(7, false), shown({ title: 'Offline' })]);
    expect(run(online, { type: 'toggle_online' }).effects).toEqual([
      sent('stop_talking', 7),
      joined(7, false),
      shown({ title: 'Offline' }),
    ]);
  });

  it('goes offline before switching channel, stopping before leaving', () => {
    const { state, effects } = run(online, { type: 'select_channel', channelId: 8 });
    expect(state).toMatchObject({ online: false, talking: false, channelId: 8 });
    expect(effects).toEqual([
      sent('stop_talking', 7),
      sent('leave_channel', 7),
      joined(8, false),
      shown({ title: 'Offline' }),
    ]);
  });

  it('is forced offline with Connection Lost when the socket drops, sending nothing', () => {
    const { state, effects } = run(online, { type: 'socket', open: false });
    expect(state).toMatchObject({ online: false, talking: false, socketOpen: false });
    expect(effects).toEqual([
      shown({
        title: 'Connection Lost',
        description: 'Voice disconnected due to connection loss',
        variant: 'destructive',
      }),
    ]);
    expect(run(state, { type: 'socket', open: true }).effects).toEqual([
      joined(7, false),
      { kind: 'check_rejoin', channelId: 7 },
    ]);
  });

  it('cannot go online without an open socket, a channel, or during a call', () => {
    const closed = run(initialPresenceState, { type: 'select_channel', channelId: 7 }).state;
    expect(run(closed, { type: 'toggle_online' })).toEqual({ state: closed, effects: [] });
    const noChannel = run(initialPresenceState, { type: 'socket', open: true }).state;
    expect(run(noChannel, { type: 'toggle_online' }).state.online).toBe(false);
    const onCall = run(ready, { type: 'call', active: true }).state;
    expect(run(onCall, { type: 'toggle_online' }).state.online).toBe(false);
  });

  it('self-mute stops talking and unmuting starts again, only while online', () => {
    const muted = run(online, { type: 'toggle_self_mute' });
    expect(muted.state).toMatchObject({ talking: false, online: true });
    expect(muted.state.gate).toMatchObject({ state: 'open', mute: 'muted' });
    expect(muted.effects).toEqual([sent('stop_talking', 7), shown({ title: 'Self Muted' })]);
    const unmuted = run(muted.state, { type: 'toggle_self_mute' });
    expect(unmuted.effects).toEqual([sent('start_talking', 7), shown({ title: 'Self Unmuted' })]);
    expect(run(ready, { type: 'toggle_self_mute' }).effects).toEqual([]);
  });

  it('stops talking and listening while idle and starts again on return, without toasts', () => {
    const idle = run(online, { type: 'idle', idle: true });
    expect(idle.state).toMatchObject({ idle: true, online: true, talking: false });
    expect(idle.effects).toEqual([sent('stop_talking', 7), joined(7, false)]);
    expect(run(idle.state, { type: 'idle', idle: false }).effects).toEqual([
      joined(7, true),
      sent('start_talking', 7),
    ]);
    expect(run(ready, { type: 'idle', idle: true }).state.idle).toBe(false);
  });

  it('a call stops listening while it lasts; the app can take the user offline for it', () => {
    const onCall = run(online, { type: 'call', active: true });
    expect(onCall.state).toMatchObject({ online: true, talking: false });
    expect(onCall.effects).toEqual([sent('stop_talking', 7), joined(7, false)]);
    expect(run(onCall.state, { type: 'call', active: false }).effects).toEqual([
      joined(7, true),
      sent('start_talking', 7),
    ]);
    const accepted = run(online, { type: 'go_offline' });
    expect(accepted.state.online).toBe(false);
    expect(accepted.effects.at(-1)).toEqual(shown(TOASTS.offline));
    expect(run(ready, { type: 'go_offline' }).effects).toEqual([]);
  });

  it('going offline clears idle', () => {
    const idle = run(online, { type: 'idle', idle: true }).state;
    const { state, effects } = run(idle, { type: 'toggle_online' });
    expect(state.idle).toBe(false);
    expect(effects).toEqual([shown({ title: 'Offline' })]);
  });
});

describe('the current channel going away', () => {
  it('goes offline without messages to a channel the server already left', () => {
    const { state, effects } = run(online, {
      type: 'channel_gone',
      channelId: 7,
      reason: 'deleted',
    });
    expect(state).toMatchObject({ online: false, channelId: null, talking: false });
    expect(effects).toEqual([shown(TOASTS.deleted)]);
  });

  it('ignores other channels and stays quiet while offline', () => {
    expect(run(online, { type: 'channel_gone', channelId: 3, reason: 'removed' })).toEqual({
      state: online,
      effects: [],
    });
    expect(run(ready, { type: 'channel_gone', channelId: 7, reason: 'removed' }).effects).toEqual(
      [],
    );
  });
});

describe('rejoining after a lost connection (decision 021)', () => {
  const offAir: PresenceEvent = { type: 'voice', onAir: false };
  /** Dropped while online and talking; the voice room went down with it. */
  const lost = run(online, { type: 'socket', open: false }, offAir).state;
  const back = run(lost, { type: 'socket', open: true }).state;
  const member = (channelId = 7): PresenceEvent => ({ type: 'rejoin', channelId, member: true });

  it('goes back ONLINE in the same channel, listening and talking again, with a toast', () => {
    const { state, effects } = run(back, member(), onAir);
    expect(state).toMatchObject({ online: true, talking: true, channelId: 7, rejoin: null });
    expect(effects).toEqual([
      joined(7, true),
      shown({ title: 'Reconnected', description: 'Back online in the channel' }),
      sent('start_talking', 7),
    ]);
  });

  it('keeps self-mute: a muted user never comes back on the air', () => {
    const muted = run(online, { type: 'toggle_self_mute' }).state;
    const dropped = run(muted, { type: 'socket', open: false }, offAir, {
      type: 'socket',
      open: true,
    });
    const { state, effects } = run(dropped.state, member(), onAir);
    expect(state).toMatchObject({ online: true, talking: false });
    expect(isSelfMuted(state.gate)).toBe(true);
    expect(effects).not.toContainEqual(sent('start_talking', 7));
  });

  it('never rejoins a user who was OFFLINE when it dropped', () => {
    const dropped = run(ready, { type: 'socket', open: false }, { type: 'socket', open: true });
    expect(dropped.effects).toEqual([joined(7, false)]);
    expect(run(dropped.state, member()).state.online).toBe(false);
  });

  it('never rejoins a user removed from the channel meanwhile', () => {
    const { state, effects } = run(back, { type: 'rejoin', channelId: 7, member: false });
    expect(state).toMatchObject({ online: false, rejoin: null });
    expect(effects).toEqual([]);
  });

  it('forgets the rejoin when the user picks another channel, takes a call, or signs out', () => {
    const choices: PresenceEvent[] = [
      { type: 'select_channel', channelId: 8 },
      { type: 'call', active: true },
      { type: 'go_offline' },
      { type: 'detach' },
      { type: 'channel_gone', channelId: 7, reason: 'removed' },
    ];
    for (const choice of choices) {
      const after = run(lost, choice, { type: 'socket', open: true });
      expect(after.state.rejoin).toBeNull();
      expect(after.effects).not.toContainEqual({ kind: 'check_rejoin', channelId: 7 });
      expect(run(after.state, member()).state.online).toBe(false);
    }
  });

  it('an answer that comes after the user went ONLINE by hand changes nothing', () => {
    const byHand = run(back, { type: 'toggle_online' }).state;
    const answer = reducePresence(byHand, member());
    expect(answer.state).toBe(byHand);
    expect(answer.effects).toEqual([]);
  });

  it('asks again after every reopen until the server answers', () => {
    const dropAgain = run(back, { type: 'socket', open: false }, member());
    expect(dropAgain.state.rejoin).toEqual({ channelId: 7, selfMuted: false });
    const reopened = run(dropAgain.state, { type: 'socket', open: true });
    expect(reopened.effects).toContainEqual({ kind: 'check_rejoin', channelId: 7 });
  });
});

describe('no-op events', () => {
  it('return the very same state, so nothing re-renders', () => {
    expect(reducePresence(ready, { type: 'select_channel', channelId: 7 }).state).toBe(ready);
    expect(reducePresence(ready, { type: 'socket', open: true }).state).toBe(ready);
    expect(reducePresence(online, { type: 'idle', idle: false }).state).toBe(online);
    expect(reducePresence(online, onAir).state).toBe(online);
  });
});

describe('hold to talk', () => {
  const ready = (mode: 'toggle' | 'hold') => {
    let state = run(initialPresenceState, { type: 'socket', open: true }).state;
    state = run(state, { type: 'select_channel', channelId: 3 }).state;
    return run(state, { type: 'set_talk_mode', mode }).state;
  };

  it('goes online hearing but not talking, talks while held, and stops on release', () => {
    const online = run(ready('hold'), { type: 'toggle_online' }, onAir);
    expect(online.state).toMatchObject({ online: true, talking: false });
    expect(wantsToTransmit(online.state)).toBe(false);
    expect(online.effects.filter((e) => e.kind === 'send')).toEqual([joined(3, true)]);
    const held = run(online.state, { type: 'hold', holding: true });
    expect(held.state.talking).toBe(true);
    expect(held.effects).toEqual([sent('start_talking', 3)]);
    const released = run(held.state, { type: 'hold', holding: false });
    expect(released.state.talking).toBe(false);
    expect(released.effects).toEqual([sent('stop_talking', 3)]);
  });

  it('ignores holding while offline or in toggle mode', () => {
    expect(isHeld(run(ready('hold'), { type: 'hold', holding: true }).state.gate)).toBe(false);
    const toggleOnline = run(ready('toggle'), { type: 'toggle_online' }, onAir).state;
    expect(run(toggleOnline, { type: 'hold', holding: true }).effects).toEqual([]);
  });

  it('forgets a hold when going offline, and keeps the mode across detach', () => {
    let state = run(ready('hold'), { type: 'toggle_online' }, onAir).state;
    state = run(state, { type: 'hold', holding: true }).state;
    const off = run(state, { type: 'toggle_online' });
    expect(off.state).toMatchObject({ online: false, talking: false });
    expect(isHeld(off.state.gate)).toBe(false);
    expect(run(off.state, { type: 'detach' }).state.gate.talkMode).toBe('hold');
  });

  it('switching to toggle mode while online starts talking at once', () => {
    const online = run(ready('hold'), { type: 'toggle_online' }, onAir).state;
    const switched = run(online, { type: 'set_talk_mode', mode: 'toggle' });
    expect(switched.state.talking).toBe(true);
  });
});

describe('walkie-talkie channels', () => {
  /** Online in walkie-talkie channel 7 with the user's own mode left at the default toggle. */
  const walkie = run(
    ready,
    { type: 'walkie', channelId: 7, walkie: true },
    { type: 'toggle_online' },
    onAir,
  ).state;

  it('hears but does not talk until a hold, whatever the user chose in Settings', () => {
    expect(walkie.gate.talkMode).toBe('toggle');
    expect(walkie.talking).toBe(false);
    expect(wantsToTransmit(walkie)).toBe(false);
  });

  it('a hold asks for the floor; the microphone opens only once it is granted', () => {
    const held = run(walkie, { type: 'hold', holding: true });
    expect(held.effects).toEqual([sent('floor_request', 7)]);
    expect(held.state.talking).toBe(false);
    const granted = run(held.state, { type: 'floor', channelId: 7, mine: true });
    expect(granted.state.talking).toBe(true);
    expect(granted.effects).toEqual([sent('start_talking', 7)]);
  });

  it('someone else holding the floor keeps the microphone closed while held', () => {
    const held = run(walkie, { type: 'hold', holding: true }).state;
    const other = run(held, { type: 'floor', channelId: 7, mine: false });
    expect(other.state.talking).toBe(false);
    expect(other.effects).toEqual([]);
  });

  it('a release stops talking and gives the floor back, in that order', () => {
    const talking = run(
      walkie,
      { type: 'hold', holding: true },
      { type: 'floor', channelId: 7, mine: true },
    ).state;
    const released = run(talking, { type: 'hold', holding: false });
    expect(released.effects).toEqual([sent('stop_talking', 7), sent('floor_release', 7)]);
    expect(released.state.gate.state).toBe('standby');
  });

  it('losing the floor (cut in, or the time is up) closes the microphone while still held', () => {
    const talking = run(
      walkie,
      { type: 'hold', holding: true },
      { type: 'floor', channelId: 7, mine: true },
    ).state;
    const lost = run(talking, { type: 'floor', channelId: 7, mine: false });
    expect(lost.state.talking).toBe(false);
    expect(lost.effects).toEqual([sent('stop_talking', 7)]);
  });

  it('a grant that arrives after the release is not used', () => {
    const released = run(walkie, { type: 'hold', holding: true }, { type: 'hold', holding: false });
    const late = run(released.state, { type: 'floor', channelId: 7, mine: true });
    expect(late.state.talking).toBe(false);
    expect(late.state.gate.state).toBe('standby');
  });

  it("another channel's talk mode or floor changes nothing here, and a switch forgets both", () => {
    expect(run(walkie, { type: 'walkie', channelId: 8, walkie: false }).state.gate.walkie).toBe(
      true,
    );
    const held = run(walkie, { type: 'hold', holding: true }).state;
    expect(run(held, { type: 'floor', channelId: 8, mine: true }).state.gate.state).toBe(
      'requestingFloor',
    );
    const moved = run(held, { type: 'select_channel', channelId: 8 }).state;
    expect(moved).toMatchObject({
      online: false,
      gate: { walkie: false, state: 'offline' },
    });
  });
  it('a refused press keeps the microphone closed and sends nothing more', () => {
    const held = run(walkie, { type: 'hold', holding: true }).state;
    const refused = run(held, { type: 'floor_denied', channelId: 7 });
    expect(refused.state.gate.state).toBe('refused');
    expect(refused.state.talking).toBe(false);
    expect(refused.effects).toEqual([]);
    expect(run(held, { type: 'floor_denied', channelId: 8 }).state).toBe(held);
  });

  it('a change of talk mode gives the floor back for good: the next press asks again', () => {
    const talking = run(
      walkie,
      { type: 'hold', holding: true },
      { type: 'floor', channelId: 7, mine: true },
    ).state;
    const switched = run(talking, { type: 'set_talk_mode', mode: 'hold' });
    expect(switched.effects).toEqual([sent('stop_talking', 7), sent('floor_release', 7)]);
    const again = run(switched.state, { type: 'hold', holding: true });
    expect(again.state.talking).toBe(false);
    expect(again.effects).toEqual([sent('floor_request', 7)]);
  });
});
