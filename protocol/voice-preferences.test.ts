import { describe, expect, it } from 'vitest';
import {
  memberVolumeOf,
  setMemberVolumeBodySchema,
  updateVoicePreferencesBodySchema,
  volumeToGain,
} from './voice-preferences.js';

describe('voice preferences', () => {
  it('turn a volume into a gain: 0 % silent, 100 % unchanged, 200 % doubled, out of range clamped', () => {
    expect([0, 50, 100, 200].map(volumeToGain)).toEqual([0, 0.5, 1, 2]);
    expect(volumeToGain(-20)).toBe(0);
    expect(volumeToGain(500)).toBe(2);
    expect(volumeToGain(Number.NaN)).toBe(1);
  });

  it('play members without a stored volume at 100 %', () => {
    const preferences = { rogerBeep: false, memberVolumes: { a: 30 } };
    expect(memberVolumeOf(preferences, 'a')).toBe(30);
    expect(memberVolumeOf(preferences, 'b')).toBe(100);
  });

  it('accept whole percents from 0 to 200 and nothing else', () => {
    for (const volume of [0, 5, 200])
      expect(setMemberVolumeBodySchema.safeParse({ volume }).success).toBe(true);
    for (const body of [
      { volume: -1 },
      { volume: 201 },
      { volume: 7.5 },
      { volume: '50' },
      {},
      { volume: 50, x: 1 },
    ])
      expect(setMemberVolumeBodySchema.safeParse(body).success).toBe(false);
    expect(updateVoicePreferencesBodySchema.safeParse({ rogerBeep: true }).success).toBe(true);
    expect(updateVoicePreferencesBodySchema.safeParse({ rogerBeep: 1 }).success).toBe(false);
  });
});
