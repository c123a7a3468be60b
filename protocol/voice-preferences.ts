import { z } from 'zod';
import { userIdSchema } from './users.js';

/**
 * The signed-in listener's own voice preferences: how loud each member plays for them
 * (0-200 %, 100 % = as sent) and whether a roger beep marks the end of their hold-to-talk. Kept on
 * the server so they follow the user across devices; only the user reads or writes their own.
 */
export const MIN_MEMBER_VOLUME = 0;
export const MAX_MEMBER_VOLUME = 200;
export const DEFAULT_MEMBER_VOLUME = 100;

/** Whole percent, 0 (silent) to 200 (twice the gain). */
export const memberVolumeSchema = z.number().int().min(MIN_MEMBER_VOLUME).max(MAX_MEMBER_VOLUME);

export const voicePreferencesSchema = z.object({
  rogerBeep: z.boolean(),
  /** Only members set away from 100 % are listed; anyone missing plays at 100 %. */
  memberVolumes: z.record(userIdSchema, memberVolumeSchema),
});
export type VoicePreferences = z.infer<typeof voicePreferencesSchema>;

export const DEFAULT_VOICE_PREFERENCES: VoicePreferences = { rogerBeep: false, memberVolumes: {} };

/** `PATCH /api/voice-preferences`: the switches to change (today only the roger beep). */
export const updateVoicePreferencesBodySchema = z.strictObject({ rogerBeep: z.boolean() });
export type UpdateVoicePreferencesBody = z.infer<typeof updateVoicePreferencesBodySchema>;

/** `/api/voice-preferences/member-volumes/{memberId}` */
export const memberVolumeParamsSchema = z.object({ memberId: userIdSchema });

/** `PUT /api/voice-preferences/member-volumes/{memberId}` */
export const setMemberVolumeBodySchema = z.strictObject({ volume: memberVolumeSchema });
export type SetMemberVolumeBody = z.infer<typeof setMemberVolumeBodySchema>;

export const memberVolumeResponseSchema = z.object({
  memberId: userIdSchema,
  volume: memberVolumeSchema,
});
export type MemberVolume = z.infer<typeof memberVolumeResponseSchema>;

/** A member's volume as a gain factor: 0 % silences, 100 % leaves the audio as sent, 200 % doubles it. */
export function volumeToGain(volume: number): number {
  const clamped = Math.min(MAX_MEMBER_VOLUME, Math.max(MIN_MEMBER_VOLUME, volume));
  return Number.isFinite(clamped) ? clamped / 100 : 1;
}

/** The volume a listener hears `memberId` at. */
export function memberVolumeOf(preferences: VoicePreferences, memberId: string): number {
  return preferences.memberVolumes[memberId] ?? DEFAULT_MEMBER_VOLUME;
}
