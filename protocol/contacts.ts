import { z } from 'zod';
import { userSchema } from './user.js';
import { userIdSchema } from './users.js';

/** Emails are stored lower-cased at sign-in, so lookups compare lower-cased too. */
export const addContactBodySchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email().max(320)),
});
export type AddContactBody = z.infer<typeof addContactBodySchema>;

/**
 * `POST /api/contacts` answers this for every address but one's own, registered or not (decision
 * 026): whether an address has an account is not for the asking. The contact list shows who was added.
 */
export const CONTACT_ADD_MESSAGE = 'If this address has an account, it is among your contacts now';
/** Contacts one person may add per hour. */
export const CONTACT_ADDS_PER_HOUR = 60;

/** `/api/contacts/{id}`: the contact's user id. */
export const contactParamsSchema = z.object({ id: userIdSchema });

/** A contact is a user record (spec §3). */
export const contactSchema = userSchema;
export const contactsResponseSchema = z.array(contactSchema);
