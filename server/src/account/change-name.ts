import { eq } from 'drizzle-orm';
import type { ChangeNameBody } from '../../../protocol/account.js';
import type { User } from '../../../protocol/user.js';
import { localAccountOf } from '../auth/provider/account-maintenance.js';
import type { SessionUser } from '../auth/session-store.js';
import { toUserView } from '../auth/user-view.js';
import type { Database } from '../db/database.js';
import { localAccounts, users } from '../db/schema.js';
import { notFound } from '../http/errors.js';

/**
 * Sets the user's own first and last name, in one transaction with the built-in provider's account
 * name (when they sign in there), so the provider's sign-in page and the app agree. Later sign-ins
 * keep this name (decision 046): the provider's names only seed a new account.
 */
export async function changeOwnName(db: Database, user: SessionUser, name: ChangeNameBody): Promise<User> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(users)
      .set({ firstName: name.firstName, lastName: name.lastName, updatedAt: new Date() })
      .where(eq(users.id, user.id))
      .returning();
    if (!updated) throw notFound('User not found');
    const account = await localAccountOf(tx, user);
    if (account) {
      await tx
        .update(localAccounts)
        .set({ name: `${name.firstName} ${name.lastName}` })
        .where(eq(localAccounts.id, account.id));
    }
    return toUserView(updated);
  });
}
