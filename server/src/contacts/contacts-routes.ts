import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import { addContactBodySchema, contactParamsSchema } from '../../../protocol/contacts.js';
import type { MessageResponse } from '../../../protocol/responses.js';
import { requireUser } from '../auth/require-user.js';
import { addContact, listContacts, removeContact } from './contact-store.js';

export function registerContactRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  app.get(API_PATHS.contacts, async (request) => {
    const user = await requireUser(request);
    return listContacts(ctx.database.db, user.id);
  });

  app.post(API_PATHS.contacts, async (request, reply) => {
    const { email } = addContactBodySchema.parse(request.body);
    const user = await requireUser(request);
    return reply.status(201).send(await addContact(ctx.database.db, user.id, email));
  });

  app.delete(API_PATHS.contact, async (request) => {
    const { id } = contactParamsSchema.parse(request.params);
    const user = await requireUser(request);
    await removeContact(ctx.database.db, user.id, id);
    return { message: 'Contact removed' } satisfies MessageResponse;
  });
}
