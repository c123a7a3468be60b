import { z } from 'zod';
import { channelIdSchema } from './channels.js';

/**
 * Missed transmissions: a walkie-talkie channel keeps each transmission (who
 * spoke, when, how long, the audio as Ogg Opus) for a retention window, so members who were away
 * can play what was said. Only the channel's current members can list them or fetch their audio.
 */

export const transmissionIdSchema = z.string().uuid();

/** `/api/channels/{id}/transmissions/{transmissionId}/audio` */
export const transmissionParamsSchema = z.object({
  id: channelIdSchema,
  transmissionId: transmissionIdSchema,
});

export const transmissionSchema = z.object({
  id: transmissionIdSchema,
  speaker: z.object({ id: z.string(), name: z.string() }),
  /** ISO 8601. */
  startedAt: z.string(),
  durationMs: z.number().int().nonnegative(),
  /** Said while the caller was not in the channel's voice, and not yet marked seen. */
  missed: z.boolean(),
  /** Said in an SOS (decision 050): kept past the retention window until the alert is resolved. */
  sos: z.boolean().optional(),
});
export type Transmission = z.infer<typeof transmissionSchema>;

/** `GET /api/channels/{id}/transmissions`: oldest first, and how many of them the caller missed. */
export const transmissionsResponseSchema = z.object({
  transmissions: z.array(transmissionSchema),
  missed: z.number().int().nonnegative(),
  /** How long transmissions are kept, in hours (the server's setting). */
  retentionHours: z.number().positive(),
});
export type TransmissionsResponse = z.infer<typeof transmissionsResponseSchema>;

/** The speeds the player offers. */
export const PLAYBACK_RATES = [1, 1.5] as const;
