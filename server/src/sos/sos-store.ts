import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { SosAlert, SosLocationBody } from '../../../protocol/sos.js';
import { displayName } from '../../../protocol/user.js';
import type { Database, Queryable } from '../db/database.js';
import { channelMembers, channels, sosAcks, sosAlerts, transmissions, users } from '../db/schema.js';

export type SosAlertRow = typeof sosAlerts.$inferSelect;

const person = (user: typeof users.$inferSelect | undefined) =>
  user ? { id: user.id, name: displayName(user) } : null;

/** The whole alert as every member sees it: sender, location, acks, resolution, kept audio. */
async function viewsOf(db: Queryable, rows: SosAlertRow[]): Promise<SosAlert[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const details = await db
    .select({ id: sosAlerts.id, channelName: channels.name, sender: users })
    .from(sosAlerts)
    .innerJoin(channels, eq(channels.id, sosAlerts.channelId))
    .innerJoin(users, eq(users.id, sosAlerts.senderId))
    .where(inArray(sosAlerts.id, ids));
  const resolverIds = rows.flatMap((row) => (row.resolvedBy === null ? [] : [row.resolvedBy]));
  const resolvers =
    resolverIds.length === 0
      ? []
      : await db.select().from(users).where(inArray(users.id, resolverIds));
  const acks = await db
    .select({ alertId: sosAcks.alertId, at: sosAcks.at, user: users })
    .from(sosAcks)
    .innerJoin(users, eq(users.id, sosAcks.userId))
    .where(inArray(sosAcks.alertId, ids))
    .orderBy(asc(sosAcks.at), asc(sosAcks.userId));
  const audio = await db
    .select({ alertId: transmissions.sosAlertId, id: transmissions.id, durationMs: transmissions.durationMs })
    .from(transmissions)
    .where(inArray(transmissions.sosAlertId, ids))
    .orderBy(asc(transmissions.startedAt), asc(transmissions.id));
  return rows.flatMap((row) => {
    const detail = details.find((d) => d.id === row.id);
    if (!detail) return [];
    const located =
      row.latitude !== null && row.longitude !== null && row.accuracy !== null && row.locatedAt !== null;
    return [
      {
        id: row.id,
        channelId: row.channelId,
        channelName: detail.channelName,
        sender: { id: detail.sender.id, name: displayName(detail.sender) },
        raisedAt: row.raisedAt.toISOString(),
        talkUntil: row.talkUntil.getTime(),
        location: located
          ? {
              latitude: row.latitude!,
              longitude: row.longitude!,
              accuracy: row.accuracy!,
              at: row.locatedAt!.toISOString(),
            }
          : null,
        acks: acks
          .filter((ack) => ack.alertId === row.id)
          .map((ack) => ({
            user: { id: ack.user.id, name: displayName(ack.user) },
            at: ack.at.toISOString(),
          })),
        resolvedAt: row.resolvedAt?.toISOString() ?? null,
        resolvedBy: person(resolvers.find((user) => user.id === row.resolvedBy)),
        transmissions: audio
          .filter((t) => t.alertId === row.id)
          .map((t) => ({ id: t.id, durationMs: t.durationMs })),
      },
    ];
  });
}

export async function findAlert(db: Queryable, alertId: string): Promise<SosAlertRow | null> {
  const [row] = await db.select().from(sosAlerts).where(eq(sosAlerts.id, alertId)).limit(1);
  return row ?? null;
}

export async function alertView(db: Queryable, alertId: string): Promise<SosAlert | null> {
  const row = await findAlert(db, alertId);
  return row ? ((await viewsOf(db, [row]))[0] ?? null) : null;
}

/** The unresolved alerts of the user's channels, newest first. */
export async function openAlertsOf(db: Database, userId: string): Promise<SosAlert[]> {
  const mine = db
    .select({ id: channelMembers.channelId })
    .from(channelMembers)
    .where(eq(channelMembers.userId, userId));
  const rows = await db
    .select()
    .from(sosAlerts)
    .where(and(inArray(sosAlerts.channelId, mine), isNull(sosAlerts.resolvedAt)))
    .orderBy(desc(sosAlerts.raisedAt), desc(sosAlerts.id));
  return viewsOf(db, rows);
}

/** The sender's unresolved alert of this channel raised less than `windowMs` ago, if any. */
function extendable(db: Queryable, channelId: number, senderId: string, windowMs: number) {
  return db
    .select()
    .from(sosAlerts)
    .where(
      and(
        eq(sosAlerts.channelId, channelId),
        eq(sosAlerts.senderId, senderId),
        isNull(sosAlerts.resolvedAt),
        gt(sosAlerts.raisedAt, new Date(Date.now() - windowMs)),
      ),
    )
    .orderBy(desc(sosAlerts.raisedAt))
    .limit(1);
}

/**
 * Raises an SOS, or extends the sender's own unresolved one of this channel raised less than
 * `extendWindowMs` ago (its talk time moves), in one transaction: the sender's membership row is
 * locked first, so two raises at once make one alert. `beforeCreate` runs first when no alert is
 * there to extend (the ceiling of new alerts, counted outside the transaction, which holds PGlite's
 * one connection; throwing refuses and writes nothing).
 */
export async function raiseOrExtend(
  db: Database,
  input: {
    channelId: number;
    senderId: string;
    talkUntil: Date;
    extendWindowMs: number;
    beforeCreate: () => Promise<void>;
  },
): Promise<{ alert: SosAlertRow; extended: boolean } | null> {
  const [toExtend] = await extendable(db, input.channelId, input.senderId, input.extendWindowMs);
  if (!toExtend) await input.beforeCreate();
  return db.transaction(async (tx) => {
    const [member] = await tx
      .select({ userId: channelMembers.userId })
      .from(channelMembers)
      .where(and(eq(channelMembers.channelId, input.channelId), eq(channelMembers.userId, input.senderId)))
      .for('update');
    if (!member) return null;
    const [recent] = await extendable(tx, input.channelId, input.senderId, input.extendWindowMs);
    if (recent) {
      const [alert] = await tx
        .update(sosAlerts)
        .set({ talkUntil: input.talkUntil })
        .where(eq(sosAlerts.id, recent.id))
        .returning();
      return { alert: alert!, extended: true };
    }
    const [alert] = await tx
      .insert(sosAlerts)
      .values({
        id: randomUUID(),
        channelId: input.channelId,
        senderId: input.senderId,
        talkUntil: input.talkUntil,
      })
      .returning();
    return { alert: alert!, extended: false };
  });
}

export async function setTalkUntil(db: Database, alertId: string, talkUntil: Date): Promise<void> {
  await db
    .update(sosAlerts)
    .set({ talkUntil })
    .where(and(eq(sosAlerts.id, alertId), isNull(sosAlerts.resolvedAt)));
}

/** The sender's latest location; false when the alert was resolved meanwhile. */
export async function setLocation(
  db: Database,
  alertId: string,
  location: SosLocationBody,
): Promise<boolean> {
  const updated = await db
    .update(sosAlerts)
    .set({ ...location, locatedAt: new Date() })
    .where(and(eq(sosAlerts.id, alertId), isNull(sosAlerts.resolvedAt)))
    .returning({ id: sosAlerts.id });
  return updated.length > 0;
}

/** "I'm on it", once per member: true when this is their first answer. */
export async function addAck(db: Database, alertId: string, userId: string): Promise<boolean> {
  const inserted = await db
    .insert(sosAcks)
    .values({ alertId, userId })
    .onConflictDoNothing()
    .returning({ userId: sosAcks.userId });
  return inserted.length > 0;
}

/**
 * Marks it resolved unless it already was (its talk time ends now at the latest): true when this
 * call resolved it.
 */
export async function resolveAlert(db: Database, alertId: string, byId: string): Promise<boolean> {
  const now = new Date();
  const updated = await db
    .update(sosAlerts)
    .set({ resolvedAt: now, resolvedBy: byId, talkUntil: sql`least(${sosAlerts.talkUntil}, now())` })
    .where(and(eq(sosAlerts.id, alertId), isNull(sosAlerts.resolvedAt)))
    .returning({ id: sosAlerts.id });
  return updated.length > 0;
}

/** The channel's SOS setting (channel admins). */
export async function setChannelSos(
  db: Database,
  channelId: number,
  body: { sos: boolean; sosSeconds?: number | undefined },
): Promise<{ sos: boolean; sosSeconds: number } | null> {
  const [row] = await db
    .update(channels)
    .set({ sos: body.sos, ...(body.sosSeconds === undefined ? {} : { sosSeconds: body.sosSeconds }) })
    .where(eq(channels.id, channelId))
    .returning({ sos: channels.sos, sosSeconds: channels.sosSeconds });
  return row ?? null;
}
