import { hash, verify } from '@node-rs/argon2';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { localAccounts, oidcPayloads, sessions } from '../../db/schema.js';
import { MIN_PASSWORD_LENGTH, type LocalAccount } from './local-accounts.js';

/** Where a user row points: a built-in provider's account is keyed by its id as the subject. */
interface IdentityRef {
  issuer: string;
  subject: string;
}

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/** The built-in provider's account behind a user, if the user signed in with it. */
export async function localAccountOf(db: Database | Tx, user: IdentityRef): Promise<LocalAccount | undefined> {
  // Issued by a provider mounted at /oidc (ours, whatever PUBLIC_URL was at the time) with our account id.
  if (!URL.canParse(user.issuer) || new URL(user.issuer).pathname !== '/oidc') return undefined;
  const [account] = await db.select().from(localAccounts).where(eq(localAccounts.id, user.subject)).limit(1);
  return account;
}

export class PasswordTooShortError extends Error {
  constructor() {
    super(`Passwords are at least ${MIN_PASSWORD_LENGTH} characters`);
  }
}

/**
 * Sets a built-in account's password and signs it out everywhere else: every app session of the
 * user except `keepSessionHash`, and every provider session and grant of the account.
 */
export async function setLocalPassword(
  db: Database,
  account: LocalAccount,
  userId: string,
  password: string,
  keepSessionHash?: string,
): Promise<void> {
  if (password.length < MIN_PASSWORD_LENGTH) throw new PasswordTooShortError();
  const passwordHash = await hash(password);
  await db.transaction(async (tx) => {
    await tx.update(localAccounts).set({ passwordHash }).where(eq(localAccounts.id, account.id));
    await tx
      .delete(sessions)
      .where(keepSessionHash ? and(eq(sessions.userId, userId), ne(sessions.idHash, keepSessionHash)) : eq(sessions.userId, userId));
    await deleteProviderState(tx, account.id);
  });
}

export async function passwordMatches(account: LocalAccount, password: string): Promise<boolean> {
  return verify(account.passwordHash, password);
}

/** The provider's sessions, grants and tokens of one account (payloads name it as accountId). */
export async function deleteProviderState(tx: Database | Tx, accountId: string): Promise<void> {
  await tx.delete(oidcPayloads).where(sql`${oidcPayloads.payload}->>'accountId' = ${accountId}`);
}
