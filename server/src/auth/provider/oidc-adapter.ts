import { and, eq, lt } from 'drizzle-orm';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import type { Database } from '../../db/database.js';
import { oidcPayloads } from '../../db/schema.js';

/**
 * oidc-provider storage in our database, so codes, grants and provider sessions survive restarts and
 * are shared by every server instance (a code used on one instance is consumed for all).
 */
export function databaseAdapter(db: Database): AdapterFactory {
  return (kind: string): Adapter => {
    const byId = (id: string) => and(eq(oidcPayloads.kind, kind), eq(oidcPayloads.id, id));

    const live = (row: typeof oidcPayloads.$inferSelect | undefined): AdapterPayload | undefined => {
      if (!row) return undefined;
      if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    };

    const findWhere = async (where: ReturnType<typeof byId>) => {
      const [row] = await db.select().from(oidcPayloads).where(where).limit(1);
      return live(row);
    };

    return {
      async upsert(id, payload, expiresIn) {
        const values = {
          id,
          kind,
          payload,
          grantId: payload.grantId ?? null,
          userCode: payload.userCode ?? null,
          uid: payload.uid ?? null,
          expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
        };
        await db
          .insert(oidcPayloads)
          .values(values)
          .onConflictDoUpdate({ target: [oidcPayloads.kind, oidcPayloads.id], set: values });
      },
      find: (id) => findWhere(byId(id)),
      findByUid: (uid) => findWhere(and(eq(oidcPayloads.kind, kind), eq(oidcPayloads.uid, uid))),
      findByUserCode: (userCode) =>
        findWhere(and(eq(oidcPayloads.kind, kind), eq(oidcPayloads.userCode, userCode))),
      async consume(id) {
        await db.update(oidcPayloads).set({ consumedAt: new Date() }).where(byId(id));
      },
      async destroy(id) {
        await db.delete(oidcPayloads).where(byId(id));
      },
      async revokeByGrantId(grantId) {
        await db.delete(oidcPayloads).where(eq(oidcPayloads.grantId, grantId));
      },
    };
  };
}

export async function purgeExpiredPayloads(db: Database, now = new Date()): Promise<void> {
  await db.delete(oidcPayloads).where(lt(oidcPayloads.expiresAt, now));
}
