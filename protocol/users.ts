import { z } from 'zod';
import { plainText } from './text.js';
import { assignableTierSchema, userSchema } from './user.js';

/** User ids are opaque strings (UUIDs today); bounded so a path cannot carry an essay. */
export const userIdSchema = plainText('A user id').trim().min(1).max(128);

export const usersResponseSchema = z.array(userSchema);

/** `/api/users/{userId}/channels` */
export const userChannelsParamsSchema = z.object({ userId: userIdSchema });

/** `/api/users/{id}/block`, `/api/users/{id}/subscription` */
export const userParamsSchema = z.object({ id: userIdSchema });

/** `POST /api/users/{id}/subscription`: superadmin is never assignable (spec §4 "Other"). */
export const changeSubscriptionBodySchema = z.object({ subscriptionTier: assignableTierSchema });
export type ChangeSubscriptionBody = z.infer<typeof changeSubscriptionBodySchema>;

/** The target user after the change (unchanged when the change was ignored, spec §5). */
export const changeSubscriptionResponseSchema = userSchema;
