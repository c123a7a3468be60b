import { describe, expect, it } from 'vitest';
import {
  initialPresenceState,
  reducePresence,
  type PresenceEvent,
  type PresenceState,
} from '../presence/presence-state';
import { isTalkRelease } from './roger-beep';

const run = (state: PresenceState, ...events: PresenceEvent[]) =>
  events.reduce((s, event) => reducePresence(s, event).state, state);

/** Online in Hold to talk in channel 7, the voice room carrying the microphone. */
const ready = run(
  initialPresenceState,
  { type: 'socket', open: true },
  { type: 'select_channel', channelId: 7 },
  { type: 'set_talk_mode', mode: 'hold' },
  { type: 'toggle_online' },
  { type: 'voice', onAir: true },
);
const onAir = run(ready, { type: 'hold', holding: true });
const release: PresenceEvent = { type: 'hold', holding: false };

describe('a talk release (roger beep)', () => {
  it('is letting go of hold-to-talk while on the air', () => {
    expect(onAir.talking).toBe(true);
    expect(isTalkRelease(onAir, run(onAir, release))).toBe(true);
  });

  it('is not going offline, muting oneself, holding without the air, or toggle mode', () => {
    expect(isTalkRelease(onAir, run(onAir, { type: 'toggle_online' }))).toBe(false);
    const offAir = run(onAir, { type: 'voice', onAir: false });
    expect(isTalkRelease(offAir, run(offAir, release))).toBe(false);
    const muted = run(onAir, { type: 'toggle_self_mute' });
    expect(isTalkRelease(onAir, muted)).toBe(false);
    expect(isTalkRelease(muted, run(muted, release))).toBe(false);
    expect(isTalkRelease(onAir, onAir)).toBe(false);
    const toggle = run(ready, { type: 'set_talk_mode', mode: 'toggle' });
    expect(isTalkRelease(toggle, run(toggle, { type: 'toggle_self_mute' }))).toBe(false);
  });

  it('is the floor given back in a walkie-talkie channel', () => {
    const walkie = run(
      ready,
      { type: 'set_talk_mode', mode: 'toggle' },
      { type: 'walkie', channelId: 7, walkie: true },
      { type: 'hold', holding: true },
      { type: 'floor', channelId: 7, mine: true },
    );
    expect(walkie.talking).toBe(true);
    expect(isTalkRelease(walkie, run(walkie, release))).toBe(true);
  });
});
