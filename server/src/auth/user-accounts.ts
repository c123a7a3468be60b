import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { users } from '../db/schema.js';
import type { SessionUser } from './session-store.js';

/** The claims of a verified ID token that Chirp keeps. */
export interface IdentityClaims {
  sub: string;
  email?: string | undefined;
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

// Serialises first-user promotion so two simultaneous first sign-ins cannot both become superadmin.
const FIRST_USER_LOCK = 7_301_001;

/**
 * Creates or refreshes the user for a verified identity. Superadmins: everyone in SUPERADMIN_EMAILS,
 * or — when that list is empty — the first user ever to sign in.
 */
export async function upsertUserFromClaims(
  db: Database,
  issuer: string,
  claims: IdentityClaims,
  superadminEmails: string[],
): Promise<SessionUser> {
  const email = claims.email?.trim().toLowerCase() || null;
  const { firstName, lastName } = namesFromClaims(claims);
  const listedSuperadmin = email !== null && superadminEmails.includes(email);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_USER_LOCK})`);
    const [existing] = await tx
      .select()
      .from(users)
      .where(and(eq(users.issuer, issuer), eq(users.subject, claims.sub)))
      .limit(1);
    if (existing) {
      const [updated] = await tx
        .update(users)
        .set({
          email,
          firstName,
          lastName,
          profileImageUrl: claims.picture ?? existing.profileImageUrl,
          subscriptionTier: listedSuperadmin ? 'superadmin' : existing.subscriptionTier,
          updatedAt: new Date(),
        })
        .where(eq(users.id, existing.id))
        .returning();
      return updated!;
    }
    const [anyUser] = await tx.select({ id: users.id }).from(users).limit(1);
    const firstEver = anyUser === undefined && superadminEmails.length === 0;
    const [created] = await tx
      .insert(users)
      .values({
        issuer,
        subject: claims.sub,
        email,
        firstName,
        lastName,
        profileImageUrl: claims.picture ?? null,
        subscriptionTier: listedSuperadmin || firstEver ? 'superadmin' : 'free',
      })
      .returning();
    return created!;
  });
}
