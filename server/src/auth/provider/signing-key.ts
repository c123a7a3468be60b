import { generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { oidcPayloads } from '../../db/schema.js';

const KIND = 'SigningKey';
const ID = 'default';

/**
 * The built-in provider's ID-token signing key. Generated once and kept in the database so every
 * instance signs with the same key and tokens stay valid across restarts.
 */
export async function loadSigningKey(db: Database): Promise<JsonWebKey> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const candidate = { ...privateKey.export({ format: 'jwk' }), kid: `chirp-${Date.now().toString(36)}`, use: 'sig', alg: 'RS256' };
  await db
    .insert(oidcPayloads)
    .values({ kind: KIND, id: ID, payload: candidate })
    .onConflictDoNothing();
  const [row] = await db
    .select({ payload: oidcPayloads.payload })
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.kind, KIND), eq(oidcPayloads.id, ID)))
    .limit(1);
  return row!.payload as JsonWebKey;
}
