import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { users } from '../db/schema.js';
import type { SessionUser } from './session-store.js';

/** The claims of a verified ID token that Chirp keeps. */
export interface IdentityClaims {
  sub: string;
  email?: string | undefined;
  /** Only a provider that says the address is verified can grant a role by it. */
  email_verified?: boolean | undefined;
  given_name?: string | undefined;
  family_name?: string | undefined;
  name?: string | undefined;
  picture?: string | undefined;
}

/** Splits a single "name" claim when the provider gives no given/family names. */
export function namesFromClaims(claims: IdentityClaims): { firstName: string | null; lastName: string | null } {
  const given = claims.given_name?.trim();
  const family = claims.family_name?.trim();
  if (given || family) return { firstName: given || null, lastName: family || null };
  const parts = (claims.name ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return { firstName: null, lastName: null };
  return { firstName: parts[0] ?? null, lastName: parts.slice(1).join(' ') || null };
}

/**
 * Creates or refreshes the user for a verified identity (a name set in Settings is kept). New users are free. An e-mail listed in
 * SUPERADMIN_EMAILS makes its user superadmin only when the provider says the address is verified
 * (the built-in provider never does: anyone can type any address there). Nobody becomes superadmin
 * by signing in first: an unowned server is claimed with its setup code (ownership/).
 */
export async function upsertUserFromClaims(
  db: Database,
  issuer: string,
  claims: IdentityClaims,
  superadminEmails: string[],
): Promise<SessionUser> {
  const email = claims.email?.trim().toLowerCase() || null;
  const { firstName, lastName } = namesFromClaims(claims);
  const listedSuperadmin = email !== null && claims.email_verified === true && superadminEmails.includes(email);
  const [existing] = await db
    .select()
    .from(users)
    .where(and(eq(users.issuer, issuer), eq(users.subject, claims.sub)))
    .limit(1);
  if (existing) {
    // The provider's names seed an account; once it has both, the name is the user's own to change
    // in Settings and a later sign-in does not undo it (decision 046).
    const keepsName = existing.firstName !== null && existing.lastName !== null;
    const [updated] = await db
      .update(users)
      .set({
        email,
        firstName: keepsName ? existing.firstName : firstName,
        lastName: keepsName ? existing.lastName : lastName,
        profileImageUrl: claims.picture ?? existing.profileImageUrl,
        subscriptionTier: listedSuperadmin ? 'superadmin' : existing.subscriptionTier,
        updatedAt: new Date(),
      })
      .where(eq(users.id, existing.id))
      .returning();
    return updated!;
  }
  const values = {
    issuer,
    subject: claims.sub,
    email,
    firstName,
    lastName,
    profileImageUrl: claims.picture ?? null,
    subscriptionTier: listedSuperadmin ? ('superadmin' as const) : ('free' as const),
  };
  // Two first sign-ins of one identity at once: the loser reads the winner's row.
  const [created] = await db.insert(users).values(values).onConflictDoNothing().returning();
  return created ?? upsertUserFromClaims(db, issuer, claims, superadminEmails);
}
