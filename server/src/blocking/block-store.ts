import { and, asc, eq, or } from 'drizzle-orm';
import type { User } from '../../../protocol/user.js';
import type { Database, Queryable } from '../db/database.js';
import { blocks, users } from '../db/schema.js';
import { userViewFor, type Viewer } from '../users/user-visibility.js';

export async function hasBlocked(
  db: Queryable,
  blockerId: string,
  blockedId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ blockerId: blocks.blockerId })
    .from(blocks)
    .where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)))
    .limit(1);
  return row !== undefined;
}

/** Idempotent: blocking twice leaves one block. */
export async function block(db: Database, blockerId: string, blockedId: string): Promise<void> {
  await db.insert(blocks).values({ blockerId, blockedId }).onConflictDoNothing();
}

/** Idempotent: unblocking someone not blocked changes nothing. */
export async function unblock(db: Database, blockerId: string, blockedId: string): Promise<void> {
  await db
    .delete(blocks)
    .where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)));
}

export async function listBlocked(db: Database, blocker: Viewer): Promise<User[]> {
  return db
    .select(userViewFor(blocker))
    .from(blocks)
    .innerJoin(users, eq(users.id, blocks.blockedId))
    .where(eq(blocks.blockerId, blocker.id))
    .orderBy(asc(blocks.createdAt), asc(users.id));
}

/**
 * Everyone this user blocked or was blocked by: the people whose voice they must not hear and who
 * must not hear them. Without duplicates.
 */
export async function blockRelationsOf(db: Queryable, userId: string): Promise<string[]> {
  const rows = await db
    .select({ blockerId: blocks.blockerId, blockedId: blocks.blockedId })
    .from(blocks)
    .where(or(eq(blocks.blockerId, userId), eq(blocks.blockedId, userId)));
  return [
    ...new Set(rows.map((row) => (row.blockerId === userId ? row.blockedId : row.blockerId))),
  ];
}
