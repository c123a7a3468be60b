import { z } from 'zod';
import { userSchema } from './user.js';
import { userIdSchema } from './users.js';

/** Emails are stored lower-cased at sign-in, so lookups compare lower-cased too. */
export const addContactBodySchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email().max(320)),
});
export type AddContactBody = z.infer<typeof addContactBodySchema>;

/** `/api/contacts/{id}`: the contact's user id. */
export const contactParamsSchema = z.object({ id: userIdSchema });

/** A contact is a user record (spec §3). */
export const contactSchema = userSchema;
export const contactsResponseSchema = z.array(contactSchema);
