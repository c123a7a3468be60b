import { and, asc, eq } from 'drizzle-orm';
import type { User } from '../../../protocol/user.js';
import type { Database } from '../db/database.js';
import { contacts, users } from '../db/schema.js';
import { notFound } from '../http/errors.js';
import { findUserByEmail, userViewColumns } from '../users/user-directory.js';

export async function listContacts(db: Database, ownerId: string): Promise<User[]> {
  return db
    .select(userViewColumns)
    .from(contacts)
    .innerJoin(users, eq(users.id, contacts.contactId))
    .where(eq(contacts.ownerId, ownerId))
    .orderBy(asc(contacts.createdAt), asc(users.id));
}

/**
 * Contacts are added by e-mail (DESIGN §3): the owner of the address, when there is one, joins the
 * caller's contacts (again is harmless). The caller is told nothing either way (decision 026).
 */
export async function addContact(db: Database, ownerId: string, email: string): Promise<void> {
  const contact = await findUserByEmail(db, email);
  if (!contact || contact.id === ownerId) return;
  await db.insert(contacts).values({ ownerId, contactId: contact.id }).onConflictDoNothing();
}

export async function removeContact(
  db: Database,
  ownerId: string,
  contactId: string,
): Promise<void> {
  const deleted = await db
    .delete(contacts)
    .where(and(eq(contacts.ownerId, ownerId), eq(contacts.contactId, contactId)))
    .returning({ contactId: contacts.contactId });
  if (deleted.length === 0) throw notFound('Not a contact');
}
