import { z } from 'zod';
import { userSchema } from './user.js';

/** A blocked user is a user record (spec §3); `POST /api/users/{id}/block` answers with it. */
export const blockedUserSchema = userSchema;
export const blockedUsersResponseSchema = z.array(blockedUserSchema);
