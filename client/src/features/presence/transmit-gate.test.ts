// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  hasFloor,
  holdsToTalk,
  initialTransmitGate,
  isHeld,
  isOpen,
  isSelfMuted,
  stepGate,
  type GateEvent,
  type TransmitGate,
} from './transmit-gate';

const run = (gate: TransmitGate, ...events: GateEvent[]) => events.reduce(stepGate, gate);
/** The gate's two regions: what the press is doing, and Mute Self. */
const at = (gate: TransmitGate) => ({ state: gate.state, mute: gate.mute });

const online: GateEvent = { type: 'go_online', selfMuted: false };
const press: GateEvent = { type: 'hold', holding: true };
const release: GateEvent = { type: 'hold', holding: false };
const granted: GateEvent = { type: 'floor', mine: true };
const taken: GateEvent = { type: 'floor', mine: false };
const denied: GateEvent = { type: 'floor_denied' };
const mute: GateEvent = { type: 'toggle_self_mute' };

const toggle = run(initialTransmitGate, online);
const hold = run(initialTransmitGate, { type: 'set_talk_mode', mode: 'hold' }, online);
const walkie = run(initialTransmitGate, { type: 'walkie', walkie: true }, online);

describe('offline', () => {
  it('starts offline and closed, with the spec default Toggle', () => {
    expect(at(initialTransmitGate)).toEqual({ state: 'offline', mute: 'live' });
    expect(initialTransmitGate.talkMode).toBe('toggle');
    expect(isOpen(initialTransmitGate)).toBe(false);
  });

  it('ignores holds, floor news and Mute Self while offline', () => {
    const offline = run(initialTransmitGate, { type: 'set_talk_mode', mode: 'hold' });
    for (const event of [press, release, granted, taken, denied, mute])
      expect(stepGate(offline, event)).toBe(offline);
  });

  it('going offline closes the gate and forgets mute, hold and floor', () => {
    const talking = run(walkie, press, granted, mute);
    const off = stepGate(talking, { type: 'go_offline' });
    expect(at(off)).toEqual({ state: 'offline', mute: 'live' });
    expect(isSelfMuted(off) || isHeld(off) || hasFloor(off)).toBe(false);
    expect(at(run(off, online))).toEqual({ state: 'standby', mute: 'live' });
  });
});

describe('going online', () => {
  it('Toggle in an open channel: open at once', () => {
    expect(at(toggle)).toEqual({ state: 'open', mute: 'live' });
    expect(isOpen(toggle)).toBe(true);
  });

  it('Hold to talk or a walkie-talkie channel: standby, closed until a hold', () => {
    expect(at(hold)).toEqual({ state: 'standby', mute: 'live' });
    expect(at(walkie)).toEqual({ state: 'standby', mute: 'live' });
    expect(isOpen(hold) || isOpen(walkie)).toBe(false);
    expect(holdsToTalk(walkie)).toBe(true);
  });

  it('back after a lost connection, still muted', () => {
    const back = run(initialTransmitGate, { type: 'go_online', selfMuted: true });
    expect(at(back)).toEqual({ state: 'open', mute: 'muted' });
    expect(isOpen(back)).toBe(false);
  });

  it('is a no-op when already online', () => {
    expect(stepGate(toggle, online)).toBe(toggle);
  });
});

describe('Mute Self', () => {
  it('closes an open gate and opens it again', () => {
    const muted = stepGate(toggle, mute);
    expect(at(muted)).toEqual({ state: 'open', mute: 'muted' });
    expect(isOpen(muted)).toBe(false);
    expect(at(stepGate(muted, mute))).toEqual({ state: 'open', mute: 'live' });
  });

  it('keeps the press going on under the mute: unmuting while held opens', () => {
    const mutedHold = run(hold, mute, press);
    expect(at(mutedHold)).toEqual({ state: 'holding', mute: 'muted' });
    expect(isOpen(mutedHold)).toBe(false);
    expect(isHeld(mutedHold)).toBe(true);
    expect(at(stepGate(mutedHold, mute))).toEqual({ state: 'holding', mute: 'live' });
    expect(at(run(mutedHold, release, mute))).toEqual({ state: 'standby', mute: 'live' });
  });

  it('a muted hold in a walkie-talkie channel still asks for and keeps the floor', () => {
    const mutedFloor = run(walkie, mute, press, granted);
    expect(at(mutedFloor)).toEqual({ state: 'onAir', mute: 'muted' });
    expect(hasFloor(mutedFloor)).toBe(true);
    expect(isOpen(mutedFloor)).toBe(false);
  });
});

describe('Hold to talk in an open channel', () => {
  it('standby → holding on a press (open), → standby on the release', () => {
    const held = stepGate(hold, press);
    expect(at(held)).toEqual({ state: 'holding', mute: 'live' });
    expect(isOpen(held)).toBe(true);
    expect(at(stepGate(held, release))).toEqual({ state: 'standby', mute: 'live' });
  });

  it('a second press or a stray release changes nothing', () => {
    const held = stepGate(hold, press);
    expect(stepGate(held, press)).toBe(held);
    expect(stepGate(hold, release)).toBe(hold);
  });

  it('holds do nothing in Toggle', () => {
    expect(stepGate(toggle, press)).toBe(toggle);
  });

  it('floor news does nothing in an open channel', () => {
    const held = stepGate(hold, press);
    expect(stepGate(held, granted)).toBe(held);
    expect(stepGate(held, denied)).toBe(held);
  });
});

describe('a walkie-talkie channel', () => {
  const requesting = stepGate(walkie, press);

  it('standby → requestingFloor on a press: still closed', () => {
    expect(at(requesting)).toEqual({ state: 'requestingFloor', mute: 'live' });
    expect(isOpen(requesting)).toBe(false);
    expect(isHeld(requesting)).toBe(true);
  });

  it('requestingFloor → onAir on the grant: open', () => {
    const live = stepGate(requesting, granted);
    expect(at(live)).toEqual({ state: 'onAir', mute: 'live' });
    expect(isOpen(live)).toBe(true);
    expect(hasFloor(live)).toBe(true);
  });

  it("requestingFloor stays put while someone else's floor changes", () => {
    expect(stepGate(requesting, taken)).toBe(requesting);
  });

  it('requestingFloor → refused when the server says no', () => {
    const refused = stepGate(requesting, denied);
    expect(at(refused)).toEqual({ state: 'refused', mute: 'live' });
    expect(isOpen(refused)).toBe(false);
    expect(isHeld(refused)).toBe(true);
  });

  it('onAir → refused when the floor is taken back (cut in, time up), still held', () => {
    const lost = run(requesting, granted, taken);
    expect(at(lost)).toEqual({ state: 'refused', mute: 'live' });
    expect(isOpen(lost)).toBe(false);
  });

  it('refused → onAir if a grant still comes while held', () => {
    expect(at(run(requesting, denied, granted))).toEqual({ state: 'onAir', mute: 'live' });
  });

  it('every held state → standby on the release; a grant after it is not used', () => {
    for (const held of [requesting, run(requesting, granted), run(requesting, denied)])
      expect(at(stepGate(held, release))).toEqual({ state: 'standby', mute: 'live' });
    const late = run(requesting, release, granted);
    expect(at(late)).toEqual({ state: 'standby', mute: 'live' });
    expect(hasFloor(late)).toBe(false);
  });

  it('holds to talk whatever the user chose, and the choice is kept for open channels', () => {
    expect(walkie.talkMode).toBe('toggle');
    const open = stepGate(walkie, { type: 'walkie', walkie: false });
    expect(at(open)).toEqual({ state: 'open', mute: 'live' });
  });
});

describe('changing the mode', () => {
  it('the channel becoming walkie-talkie ends a hold (and the floor) and waits for a new one', () => {
    const held = stepGate(hold, press);
    expect(at(stepGate(held, { type: 'walkie', walkie: true }))).toEqual({
      state: 'standby',
      mute: 'live',
    });
    const live = run(walkie, press, granted);
    expect(at(stepGate(live, { type: 'walkie', walkie: false }))).toEqual({
      state: 'open',
      mute: 'live',
    });
  });

  it('Settings switching Hold to talk → Toggle opens at once; Toggle → Hold to talk closes', () => {
    expect(at(stepGate(hold, { type: 'set_talk_mode', mode: 'toggle' }))).toEqual({
      state: 'open',
      mute: 'live',
    });
    expect(at(stepGate(toggle, { type: 'set_talk_mode', mode: 'hold' }))).toEqual({
      state: 'standby',
      mute: 'live',
    });
  });

  it('a change of mode ends a hold, under a mute too', () => {
    const mutedHold = run(hold, press, mute);
    const switched = stepGate(mutedHold, { type: 'set_talk_mode', mode: 'hold' });
    expect(at(switched)).toEqual({ state: 'standby', mute: 'muted' });
  });

  it('a floor won in a walkie-talkie channel does not survive a change of mode', () => {
    const live = run(walkie, press, granted);
    const switched = stepGate(live, { type: 'set_talk_mode', mode: 'hold' });
    expect(hasFloor(switched)).toBe(false);
    // The next press asks the server again instead of opening on the old grant.
    expect(at(stepGate(switched, press))).toEqual({ state: 'requestingFloor', mute: 'live' });
  });

  it('the headset opt-in is a setting only', () => {
    const on = stepGate(hold, { type: 'set_headset_talk', on: true });
    expect(on.headsetTalk).toBe(true);
    expect(at(on)).toEqual(at(hold));
    expect(stepGate(on, { type: 'set_headset_talk', on: true })).toBe(on);
  });
});
