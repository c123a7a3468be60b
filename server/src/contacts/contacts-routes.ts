import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import {
  addContactBodySchema,
  CONTACT_ADD_MESSAGE,
  CONTACT_ADDS_PER_HOUR,
  contactParamsSchema,
} from '../../../protocol/contacts.js';
import type { MessageResponse } from '../../../protocol/responses.js';
import { requireUser } from '../auth/require-user.js';
import { badRequest, tooManyRequests } from '../http/errors.js';
import { addContact, listContacts, removeContact } from './contact-store.js';

export function registerContactRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  app.get(API_PATHS.contacts, async (request) => {
    const user = await requireUser(request);
    return listContacts(ctx.database.db, user.id);
  });

  /** The same answer for a registered and an unknown address, and a bounded number per person. */
  app.post(API_PATHS.contacts, async (request) => {
    const { email } = addContactBodySchema.parse(request.body);
    const user = await requireUser(request);
    if (email === user.email?.toLowerCase()) throw badRequest('You cannot add yourself as a contact');
    const added = await ctx.counters.counter('contact-add', 3600).penalty(user.id);
    if (added.consumedPoints > CONTACT_ADDS_PER_HOUR)
      throw tooManyRequests('Too many contacts added for now. Try again later.');
    await addContact(ctx.database.db, user.id, email);
    return { message: CONTACT_ADD_MESSAGE } satisfies MessageResponse;
  });

  app.delete(API_PATHS.contact, async (request) => {
    const { id } = contactParamsSchema.parse(request.params);
    const user = await requireUser(request);
    await removeContact(ctx.database.db, user.id, id);
    return { message: 'Contact removed' } satisfies MessageResponse;
  });
}
