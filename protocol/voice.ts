import { z } from 'zod';
import { plainText } from './text.js';

/** `POST /api/livekit-token` (spec §7): the server answers only for the signed-in user. */
export const voiceTokenRequestSchema = z.object({
  channelId: z.coerce.number().int().positive().max(2_147_483_647),
  userId: plainText('A user id').min(1).max(128),
  userName: plainText('A name').max(200).optional(),
});
export type VoiceTokenRequest = z.infer<typeof voiceTokenRequestSchema>;

export const VOICE_PROVIDER_NAMES = ['embedded', 'LiveKit'] as const;
export const voiceProviderNameSchema = z.enum(VOICE_PROVIDER_NAMES);
export type VoiceProviderName = z.infer<typeof voiceProviderNameSchema>;

export const voiceTokenResponseSchema = z.discriminatedUnion('configured', [
  z.object({ configured: z.literal(false), provider: voiceProviderNameSchema }),
  z.object({
    configured: z.literal(true),
    provider: voiceProviderNameSchema,
    url: z.string(),
    token: z.string(),
  }),
]);
export type VoiceTokenResponse = z.infer<typeof voiceTokenResponseSchema>;
