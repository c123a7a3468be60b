import { hash, verify } from '@node-rs/argon2';
import { MIN_PASSWORD_LENGTH } from '../../../../protocol/account.js';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { localAccounts } from '../../db/schema.js';

export type LocalAccount = typeof localAccounts.$inferSelect;

export { MIN_PASSWORD_LENGTH };

export type SignInOutcome =
  | { ok: true; account: LocalAccount; created: boolean }
  | { ok: false; reason: 'wrong-credentials' | 'name-required' | 'password-too-short' | 'signup-closed' };

// A dummy hash verified when the e-mail is unknown-but-invalid, so timing does not reveal accounts.
let dummyHash: Promise<string> | undefined;

/**
 * The built-in provider's sign-in rule: the first sign-in with a new e-mail creates the account,
 * later ones must present the same password.
 */
export async function signInOrRegister(
  db: Database,
  input: { name: string; email: string; password: string },
  /** The sign-up policy (SIGNUP): may this e-mail create an account now? */
  mayCreate: (email: string) => Promise<boolean> = async () => true,
): Promise<SignInOutcome> {
  const email = input.email.trim().toLowerCase();
  const [existing] = await db.select().from(localAccounts).where(eq(localAccounts.email, email)).limit(1);
  if (existing) {
    const matches = await verify(existing.passwordHash, input.password);
    return matches ? { ok: true, account: existing, created: false } : { ok: false, reason: 'wrong-credentials' };
  }
  if (input.password.length < MIN_PASSWORD_LENGTH) {
    dummyHash ??= hash('not-a-password');
    await verify(await dummyHash, input.password);
    return { ok: false, reason: 'password-too-short' };
  }
  const name = input.name.trim();
  if (!name) return { ok: false, reason: 'name-required' };
  if (!(await mayCreate(email))) return { ok: false, reason: 'signup-closed' };
  const passwordHash = await hash(input.password);
  const [created] = await db
    .insert(localAccounts)
    .values({ email, name, passwordHash })
    .onConflictDoNothing()
    .returning();
  if (!created) {
    // Someone registered this e-mail a moment ago: treat this attempt as a sign-in against it.
    return signInOrRegister(db, input, mayCreate);
  }
  return { ok: true, account: created, created: true };
}

export async function findLocalAccount(db: Database, id: string): Promise<LocalAccount | undefined> {
  const [account] = await db.select().from(localAccounts).where(eq(localAccounts.id, id)).limit(1);
  return account;
}
