import { describe, expect, it } from 'vitest';
import { initialOnlineState, type OnlineState } from '../presence/online-state';
import { isTalkRelease } from './roger-beep';

const onAir: OnlineState = {
  ...initialOnlineState,
  socketOpen: true,
  channelId: 7,
  online: true,
  talkMode: 'hold',
  holding: true,
  voiceOnAir: true,
  talking: true,
};

describe('a talk release (roger beep)', () => {
  it('is letting go of hold-to-talk while on the air', () => {
    expect(isTalkRelease(onAir, { ...onAir, holding: false, talking: false })).toBe(true);
  });

  it('is not going offline, muting oneself, holding without the air, or toggle mode', () => {
    expect(isTalkRelease(onAir, { ...onAir, online: false, holding: false })).toBe(false);
    expect(isTalkRelease({ ...onAir, voiceOnAir: false }, { ...onAir, holding: false })).toBe(
      false,
    );
    expect(isTalkRelease({ ...onAir, selfMuted: true }, { ...onAir, holding: false })).toBe(false);
    expect(isTalkRelease(onAir, onAir)).toBe(false);
    const toggle = { ...onAir, talkMode: 'toggle' as const, holding: false };
    expect(isTalkRelease(toggle, { ...toggle, selfMuted: true })).toBe(false);
  });
});
