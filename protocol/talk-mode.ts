import { z } from 'zod';
import { talkModeSchema } from './floor.js';

/**
 * A channel's talk mode as its admin sets it: REST only, so the main screen does not
 * carry these checks; the floor's socket messages are in `floor.ts`.
 */

/** The longest one transmission may last before the server takes the floor back, in seconds. */
export const MAX_TRANSMISSION_SECONDS = { min: 5, max: 300, default: 60 } as const;

export const maxTransmissionSecondsSchema = z
  .number()
  .int('Maximum transmission must be a whole number of seconds')
  .min(
    MAX_TRANSMISSION_SECONDS.min,
    `Maximum transmission must be at least ${MAX_TRANSMISSION_SECONDS.min} seconds`,
  )
  .max(
    MAX_TRANSMISSION_SECONDS.max,
    `Maximum transmission must be at most ${MAX_TRANSMISSION_SECONDS.max} seconds`,
  );

/** `PUT /api/channels/{id}/talk-mode` (channel admins). */
export const channelTalkModeBodySchema = z
  .object({
    talkMode: talkModeSchema,
    maxTransmissionSeconds: maxTransmissionSecondsSchema.optional(),
    /** Keep each transmission for replay; off deletes what was kept. */
    keepTransmissions: z.boolean().optional(),
  })
  .strict();
export type ChannelTalkModeBody = z.infer<typeof channelTalkModeBodySchema>;

export const channelTalkModeSchema = z.object({
  talkMode: talkModeSchema,
  maxTransmissionSeconds: z.number().int(),
  keepTransmissions: z.boolean(),
});
export type ChannelTalkModeSettings = z.infer<typeof channelTalkModeSchema>;
