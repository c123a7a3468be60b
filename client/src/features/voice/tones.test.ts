import { describe, expect, it } from 'vitest';
import { CONNECT_TONE, DISCONNECT_TONE, TONE_GAIN, toneForChange } from './tones';

describe('tones', () => {
  it('match spec §9', () => {
    expect(CONNECT_TONE).toEqual({ frequencies: [800, 1000], seconds: 0.2 });
    expect(DISCONNECT_TONE).toEqual({ frequencies: [600, 400], seconds: 0.25 });
    expect(TONE_GAIN).toBe(0.15);
  });

  it('rise on connecting and fall on leaving, silent otherwise', () => {
    expect(toneForChange(false, true)).toBe(CONNECT_TONE);
    expect(toneForChange(true, false)).toBe(DISCONNECT_TONE);
    expect(toneForChange(true, true)).toBeNull();
    expect(toneForChange(false, false)).toBeNull();
  });
});
