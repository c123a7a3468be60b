// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { talkButtonState, type TalkButtonInput } from './talk-button-state';

const base: TalkButtonInput = {
  usable: true,
  gate: 'standby',
  walkie: true,
  holder: null,
  userId: 'me',
};
const ava = { id: 'ava', name: 'Ava' };

describe('what the talk button shows', () => {
  it('is off while it cannot be used, whatever the floor', () => {
    expect(talkButtonState({ ...base, usable: false, holder: ava })).toBe('off');
    expect(talkButtonState({ ...base, gate: 'offline' })).toBe('off');
  });

  it('is ready on a clear floor, asking while held, live once granted', () => {
    expect(talkButtonState(base)).toBe('ready');
    expect(talkButtonState({ ...base, gate: 'requestingFloor' })).toBe('requesting');
    expect(talkButtonState({ ...base, gate: 'onAir', holder: { id: 'me', name: 'Me' } })).toBe(
      'live',
    );
  });

  it('is busy while someone else holds the floor, also while a refused press is held', () => {
    expect(talkButtonState({ ...base, holder: ava })).toBe('busy');
    expect(talkButtonState({ ...base, gate: 'refused', holder: ava })).toBe('busy');
    expect(talkButtonState({ ...base, gate: 'requestingFloor', holder: ava })).toBe('busy');
  });

  it('in an open channel held to talk, holding is live and nobody is ever busy', () => {
    const open = { ...base, walkie: false };
    expect(talkButtonState(open)).toBe('ready');
    expect(talkButtonState({ ...open, gate: 'holding' })).toBe('live');
  });
});
