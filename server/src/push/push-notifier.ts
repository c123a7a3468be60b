import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { PushPayload, PushPreferences } from '../../../protocol/push.js';
import { hasBlocked } from '../blocking/block-store.js';
import type { Database } from '../db/database.js';
import { channelMembers } from '../db/schema.js';
import { claimDelivery } from './push-deliveries.js';
import { pushPreferencesOf } from './push-preferences-store.js';
import type { PushDelivery, PushSender } from './push-sender.js';
import { subscriptionsOf } from './push-store.js';

/** One event that may notify people: what it is, who caused it, and what each recipient is shown. */
export interface PushEvent {
  /** The same on every instance that sees this event: one push per (key, device) ever goes. */
  key: string;
  /**
   * The recipient's switch (`push_preferences`) that allows it; null for an event no switch turns
   * off (an SOS, decision 050).
   */
  preference: keyof PushPreferences | null;
  /** Whose action it is: a recipient who blocked them gets nothing (unless `throughBlocks`). */
  actorId: string;
  /** Reaches a recipient whatever block stands between them and the actor (an SOS, decision 051). */
  throughBlocks?: boolean;
  /** Also nothing when the actor blocked the recipient (transmissions: a block keeps voices apart both ways). */
  blockedEitherWay?: boolean;
  /** Set for an event in a channel's conversation: the recipient's "Notify me" there must be on. */
  notifyChannelId?: number;
  delivery: PushDelivery;
  /** What this recipient's notification shows; null to show nothing after all. */
  payload(recipientId: string): PushPayload | null | Promise<PushPayload | null>;
}

export interface PushNotifierDeps {
  db: Database;
  sender: Pick<PushSender, 'send'>;
  /** Sign-in sessions of the user with a visible page on some instance: their devices are present. */
  presence: { visibleSessions(userId: string): Promise<Set<string>> };
  log: FastifyBaseLogger;
}

/**
 * Sends an event's push notification to each recipient's devices where they are not present:
 * filtered by the recipient's preferences, their "Notify me" in the channel, and blocks; each device
 * claimed in `push_deliveries` before it is sent to, so several instances send one push per device.
 * `notify` never waits and never throws: an event is never delayed or failed by its pushes.
 */
export class PushNotifier {
  private readonly pending = new Set<Promise<void>>();
  /** Each recipient's pushes, one after another, in the order their events were given here. */
  private readonly queues = new Map<string, Promise<void>>();

  constructor(private readonly deps: PushNotifierDeps) {}

  /** Starts the pushes of an event and returns at once; what fails is logged. */
  notify(recipients: readonly string[], event: PushEvent): void {
    this.start(() => this.deliver(recipients, event), event.key);
  }

  /**
   * Starts work that finds an event's recipients first and then delivers it (`deliver`); returns at
   * once, and `idle()` waits for it too. What fails is logged.
   */
  start(work: () => Promise<void>, what: string): void {
    const running = work().catch((error: unknown) =>
      this.deps.log.error({ err: error, event: what }, 'push notification failed'),
    );
    this.pending.add(running);
    void running.finally(() => this.pending.delete(running));
  }

  /** Resolves once every push started so far is done (tests, the bench, a clean shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** The event's pushes, now: resolves once each device's push service answered (or was skipped). */
  async deliver(recipients: readonly string[], event: PushEvent): Promise<void> {
    await Promise.all(
      [...new Set(recipients)].map((userId) =>
        this.inOrder(userId, () => this.deliverTo(userId, event)),
      ),
    );
  }

  /**
   * Runs a recipient's pushes in the order they were started: a call's "Missed call" shares the
   * ring's tag and Topic, so a ring sent after it would replace it on the device (and a push service
   * keeps only the newest of a topic) with "Incoming call" for a call that is over.
   */
  private inOrder(userId: string, work: () => Promise<void>): Promise<void> {
    const before = this.queues.get(userId);
    const mine = before ? before.then(work) : work();
    const tail = mine.catch(() => undefined);
    this.queues.set(userId, tail);
    void tail.then(() => {
      if (this.queues.get(userId) === tail) this.queues.delete(userId);
    });
    return mine;
  }

  private async deliverTo(userId: string, event: PushEvent): Promise<void> {
    const { db, presence, sender } = this.deps;
    if (userId === event.actorId) return;
    const devices = await subscriptionsOf(db, userId);
    if (devices.length === 0) return;
    if (event.preference !== null && !(await pushPreferencesOf(db, userId))[event.preference])
      return;
    if (!event.throughBlocks) {
      if (await hasBlocked(db, userId, event.actorId)) return;
      if (event.blockedEitherWay && (await hasBlocked(db, event.actorId, userId))) return;
    }
    if (
      event.notifyChannelId !== undefined &&
      !(await notifyIsOn(db, event.notifyChannelId, userId))
    )
      return;
    const present = await presence.visibleSessions(userId);
    const away = devices.filter((device) => !present.has(device.sessionId));
    if (away.length === 0) return;
    const payload = await event.payload(userId);
    if (!payload) return;
    await Promise.all(
      away.map(async (device) => {
        if (await claimDelivery(db, event.key, device.id))
          await sender.send(device, payload, event.delivery);
      }),
    );
  }
}

/** The member's "Notify me" in the channel; false when they are not (or no longer) a member. */
async function notifyIsOn(db: Database, channelId: number, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ notify: channelMembers.notify })
    .from(channelMembers)
    .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.userId, userId)))
    .limit(1);
  return row?.notify ?? false;
}
