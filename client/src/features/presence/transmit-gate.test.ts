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
  type GateState,
  type TransmitGate,
} from './transmit-gate';

const run = (gate: TransmitGate, ...events: GateEvent[]) => events.reduce(stepGate, gate);
const name = (gate: TransmitGate): GateState => gate.state;

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
    expect(name(initialTransmitGate)).toEqual({ name: 'offline' });
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
    expect(name(off)).toEqual({ name: 'offline' });
    expect(isSelfMuted(off) || isHeld(off) || hasFloor(off)).toBe(false);
    expect(name(run(off, online))).toEqual({ name: 'standby' });
  });
});

describe('going online', () => {
  it('Toggle in an open channel: open at once', () => {
    expect(name(toggle)).toEqual({ name: 'open' });
    expect(isOpen(toggle)).toBe(true);
  });

  it('Hold to talk or a walkie-talkie channel: standby, closed until a hold', () => {
    expect(name(hold)).toEqual({ name: 'standby' });
    expect(name(walkie)).toEqual({ name: 'standby' });
    expect(isOpen(hold) || isOpen(walkie)).toBe(false);
    expect(holdsToTalk(walkie)).toBe(true);
  });

  it('back after a lost connection, still muted', () => {
    const back = run(initialTransmitGate, { type: 'go_online', selfMuted: true });
    expect(name(back)).toEqual({ name: 'muted', under: 'open' });
    expect(isOpen(back)).toBe(false);
  });

  it('is a no-op when already online', () => {
    expect(stepGate(toggle, online)).toBe(toggle);
  });
});

describe('Mute Self', () => {
  it('closes an open gate and opens it again', () => {
    const muted = stepGate(toggle, mute);
    expect(name(muted)).toEqual({ name: 'muted', under: 'open' });
    expect(isOpen(muted)).toBe(false);
    expect(name(stepGate(muted, mute))).toEqual({ name: 'open' });
  });

  it('keeps the press going on under the mute: unmuting while held opens', () => {
    const mutedHold = run(hold, mute, press);
    expect(name(mutedHold)).toEqual({ name: 'muted', under: 'holding' });
    expect(isOpen(mutedHold)).toBe(false);
    expect(isHeld(mutedHold)).toBe(true);
    expect(name(stepGate(mutedHold, mute))).toEqual({ name: 'holding' });
    expect(name(run(mutedHold, release, mute))).toEqual({ name: 'standby' });
  });

  it('a muted hold in a walkie-talkie channel still asks for and keeps the floor', () => {
    const mutedFloor = run(walkie, mute, press, granted);
    expect(name(mutedFloor)).toEqual({ name: 'muted', under: 'onAir' });
    expect(hasFloor(mutedFloor)).toBe(true);
    expect(isOpen(mutedFloor)).toBe(false);
  });
});

describe('Hold to talk in an open channel', () => {
  it('standby → holding on a press (open), → standby on the release', () => {
    const held = stepGate(hold, press);
    expect(name(held)).toEqual({ name: 'holding' });
    expect(isOpen(held)).toBe(true);
    expect(name(stepGate(held, release))).toEqual({ name: 'standby' });
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
    expect(name(requesting)).toEqual({ name: 'requestingFloor' });
    expect(isOpen(requesting)).toBe(false);
    expect(isHeld(requesting)).toBe(true);
  });

  it('requestingFloor → onAir on the grant: open', () => {
    const live = stepGate(requesting, granted);
    expect(name(live)).toEqual({ name: 'onAir' });
    expect(isOpen(live)).toBe(true);
    expect(hasFloor(live)).toBe(true);
  });

  it("requestingFloor stays put while someone else's floor changes", () => {
    expect(stepGate(requesting, taken)).toBe(requesting);
  });

  it('requestingFloor → refused when the server says no', () => {
    const refused = stepGate(requesting, denied);
    expect(name(refused)).toEqual({ name: 'refused' });
    expect(isOpen(refused)).toBe(false);
    expect(isHeld(refused)).toBe(true);
  });

  it('onAir → refused when the floor is taken back (cut in, time up), still held', () => {
    const lost = run(requesting, granted, taken);
    expect(name(lost)).toEqual({ name: 'refused' });
    expect(isOpen(lost)).toBe(false);
  });

  it('refused → onAir if a grant still comes while held', () => {
    expect(name(run(requesting, denied, granted))).toEqual({ name: 'onAir' });
  });

  it('every held state → standby on the release; a grant after it is not used', () => {
    for (const held of [requesting, run(requesting, granted), run(requesting, denied)])
      expect(name(stepGate(held, release))).toEqual({ name: 'standby' });
    const late = run(requesting, release, granted);
    expect(name(late)).toEqual({ name: 'standby' });
    expect(hasFloor(late)).toBe(false);
  });

  it('holds to talk whatever the user chose, and the choice is kept for open channels', () => {
    expect(walkie.talkMode).toBe('toggle');
    const open = stepGate(walkie, { type: 'walkie', walkie: false });
    expect(name(open)).toEqual({ name: 'open' });
  });
});

describe('changing the mode', () => {
  it('the channel becoming walkie-talkie ends a hold (and the floor) and waits for a new one', () => {
    const held = stepGate(hold, press);
    expect(name(stepGate(held, { type: 'walkie', walkie: true }))).toEqual({ name: 'standby' });
    const live = run(walkie, press, granted);
    expect(name(stepGate(live, { type: 'walkie', walkie: false }))).toEqual({ name: 'open' });
  });

  it('Settings switching Hold to talk → Toggle opens at once; Toggle → Hold to talk closes', () => {
    expect(name(stepGate(hold, { type: 'set_talk_mode', mode: 'toggle' }))).toEqual({
      name: 'open',
    });
    expect(name(stepGate(toggle, { type: 'set_talk_mode', mode: 'hold' }))).toEqual({
      name: 'standby',
    });
  });

  it('a change of mode ends a hold, under a mute too', () => {
    const mutedHold = run(hold, press, mute);
    const switched = stepGate(mutedHold, { type: 'set_talk_mode', mode: 'hold' });
    expect(name(switched)).toEqual({ name: 'muted', under: 'standby' });
  });

  it('a floor won in a walkie-talkie channel does not survive a change of mode', () => {
    const live = run(walkie, press, granted);
    const switched = stepGate(live, { type: 'set_talk_mode', mode: 'hold' });
    expect(hasFloor(switched)).toBe(false);
    // The next press asks the server again instead of opening on the old grant.
    expect(name(stepGate(switched, press))).toEqual({ name: 'requestingFloor' });
  });

  it('the headset opt-in is a setting only', () => {
    const on = stepGate(hold, { type: 'set_headset_talk', on: true });
    expect(on.headsetTalk).toBe(true);
    expect(name(on)).toEqual(name(hold));
    expect(stepGate(on, { type: 'set_headset_talk', on: true })).toBe(on);
  });
});
