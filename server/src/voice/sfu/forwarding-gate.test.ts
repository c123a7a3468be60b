import { describe, expect, it } from 'vitest';
import { ForwardingGate } from './forwarding-gate.js';

const room = 'channel-1';
const everyone = ['ava', 'ben', 'cal'];
const forwarded = (gate: ForwardingGate, roomName = room) =>
  everyone.filter((userId) => !gate.isHeld(roomName, userId));

describe('the forwarding gate', () => {
  it('forwards everyone in an open room but the admin-muted, until they are unmuted', () => {
    const gate = new ForwardingGate();
    expect(forwarded(gate)).toEqual(everyone);
    expect(gate.setMuted(room, 'ben', true)).toBe(true);
    expect(forwarded(gate)).toEqual(['ava', 'cal']);
    // Only in that room.
    expect(forwarded(gate, 'channel-2')).toEqual(everyone);
    expect(gate.setMuted(room, 'ben', true)).toBe(false);
    gate.setMuted(room, 'ben', false);
    expect(forwarded(gate)).toEqual(everyone);
  });

  it('in a walkie-talkie room forwards the floor holder only, and nobody while it is free', () => {
    const gate = new ForwardingGate();
    const free = gate.setFloor(room, { walkie: true, holderId: null }, everyone);
    expect(forwarded(gate)).toEqual([]);
    expect(free).toEqual({ holderChanged: false, holderId: null, silenced: everyone });

    const toAva = gate.setFloor(room, { walkie: true, holderId: 'ava' }, everyone);
    expect(forwarded(gate)).toEqual(['ava']);
    expect(toAva).toEqual({ holderChanged: true, holderId: 'ava', silenced: [] });

    // A join re-announces the same floor: nothing changes hands.
    expect(gate.setFloor(room, { walkie: true, holderId: 'ava' }, everyone).holderChanged).toBe(
      false,
    );

    const cutIn = gate.setFloor(room, { walkie: true, holderId: 'ben' }, everyone);
    expect(forwarded(gate)).toEqual(['ben']);
    expect(cutIn).toEqual({ holderChanged: true, holderId: 'ben', silenced: ['ava'] });

    const open = gate.setFloor(room, { walkie: false, holderId: null }, everyone);
    expect(forwarded(gate)).toEqual(everyone);
    expect(open).toEqual({ holderChanged: true, holderId: null, silenced: [] });
  });

  it('holds an admin-muted holder: mute and floor are one gate', () => {
    const gate = new ForwardingGate();
    gate.setFloor(room, { walkie: true, holderId: 'ava' }, everyone);
    gate.setMuted(room, 'ava', true);
    expect(forwarded(gate)).toEqual([]);
    // Taking the floor from a muted holder silences nobody more: nobody was forwarded.
    expect(gate.setFloor(room, { walkie: true, holderId: 'cal' }, everyone).silenced).toEqual([]);
    expect(forwarded(gate)).toEqual(['cal']);
  });

  it('forgets a closed room: its mutes and floor are gone', () => {
    const gate = new ForwardingGate();
    gate.setMuted(room, 'ava', true);
    gate.setFloor(room, { walkie: true, holderId: 'ben' }, everyone);
    gate.forgetRoom(room);
    expect(forwarded(gate)).toEqual(everyone);
    expect(gate.holderOf(room)).toBeNull();
  });
});
