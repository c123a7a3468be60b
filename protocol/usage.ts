import { z } from 'zod';
import { plainText } from './text.js';

/** Spec §9 and DESIGN §3 "Usage metering". */
export const FREE_MONTHLY_MINUTES = 10_000;
export const OVERAGE_PRICE_PER_MINUTE = 0.006;
export const WARNING_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export const warningLevelSchema = z.enum(WARNING_LEVELS);
export type WarningLevel = z.infer<typeof warningLevelSchema>;

/** The message of a 429 from session start or the token endpoint (spec §8). */
export const FREE_TIER_LIMIT_MESSAGE = 'Free tier limit exceeded - cannot connect';

export const usageSchema = z.object({
  totalMonthlyMinutes: z.number(),
  usagePercentage: z.number(),
  freeMinutesRemaining: z.number(),
  warningLevel: warningLevelSchema,
  isOverLimit: z.boolean(),
  overageMinutes: z.number(),
  estimatedOverageCost: z.number(),
  payAsYouGoEnabled: z.boolean(),
});
export type Usage = z.infer<typeof usageSchema>;

export const startUsageSessionBodySchema = z.object({
  channelId: z.coerce.number().int().positive().max(2_147_483_647),
});
export const startUsageSessionResponseSchema = z.object({ sessionId: z.string() });

export const endUsageSessionBodySchema = z.object({ sessionId: plainText('A session id').min(1).max(100) });
export const endUsageSessionResponseSchema = z.object({ participantMinutes: z.number() });

export const payAsYouGoResponseSchema = z.object({ payAsYouGoEnabled: z.boolean() });
