import type { FastifyBaseLogger } from 'fastify';
import {
  SOS_ALERT_NOT_FOUND,
  SOS_ALREADY_RESOLVED,
  SOS_ARM_MS,
  SOS_EXTEND_WINDOW_MS,
  SOS_LOCATION_CLOSED,
  SOS_LOCATION_WINDOW_MS,
  SOS_NOT_MEMBER,
  SOS_NOT_SOS_CHANNEL,
  SOS_ONLY_SENDER_LOCATES,
  SOS_ONLY_SENDER_OR_ADMIN_RESOLVES,
  type SosAlert,
  type SosAlertMessage,
  type SosArmResponse,
  type SosLocationBody,
} from '../../../protocol/sos.js';
import type { SessionUser } from '../auth/session-store.js';
import type { Database } from '../db/database.js';
import type { FloorService } from '../floor/floor-service.js';
import type { VoiceProvider } from '../voice/voice-provider.js';
import type { SosArms } from './sos-arms.js';
import { badRequest, conflict, forbidden, notFound, tooManyRequests } from '../http/errors.js';
import type { Counters } from '../limits/counters.js';
import { findChannel, findMembership, memberIdsOf } from '../memberships/membership-store.js';
import { userTopic, type Bus } from '../realtime/bus.js';
import {
  addAck,
  alertView,
  findAlert,
  openAlertsOf,
  raiseOrExtend,
  resolveAlert,
  setLocation,
  setTalkUntil,
  type SosAlertRow,
} from './sos-store.js';

/** New alerts one person may raise in an hour, over all their channels (extensions not counted). */
export const SOS_RAISES_PER_HOUR = 6;
/** One location update per alert this often at most. */
export const SOS_LOCATION_MIN_INTERVAL_S = 5;

/** Countdowns one person may start in `SOS_ARM_WINDOW_S` (a cancel and a send are two). */
export const SOS_ARMS_PER_WINDOW = 4;
export const SOS_ARM_WINDOW_S = 120;
export const SOS_TOO_MANY_ARMS = 'Too many SOS countdowns: wait a minute, or send the SOS';

const armKey = (channelId: number, userId: string) => `${channelId}:${userId}`;

export const SOS_TOO_MANY_RAISES = 'Too many SOS alerts: please call for help directly';
export const SOS_LOCATION_TOO_SOON = 'Location updates are limited to one every 5 seconds';
export const SOS_SENDER_ACKS = 'You cannot answer your own alert';

export interface SosAlertsDeps {
  db: Database;
  bus: Bus;
  floor: Pick<FloorService, 'raiseSos' | 'endSos'>;
  counters: Counters;
  /** The voice provider of now: it arms an SOS countdown (decision 054). */
  voice: () => Pick<VoiceProvider, 'setSosArmed'>;
  /**
   * A countdown was armed in the channel: LiveKit's recorder joins its room now, so an open
   * channel's SOS (which has no recorder in the room before it) is kept from its first words.
   */
  armed?: (channelId: number) => void;
  /** Who is armed, for every instance's voice door. */
  arms: Pick<SosArms, 'mark' | 'unmark' | 'isArmed'>;
  /** The members' devices where Chirp is not open (filled in by compose from push/). */
  pushes: {
    raised(
      alert: Pick<SosAlert, 'id' | 'channelName' | 'sender'>,
      recipientIds: readonly string[],
    ): void;
  };
  log: FastifyBaseLogger;
}

/**
 * Family SOS (decision 050): raising (or extending) an alert, which puts its sender on the
 * channel's air with SOS priority and alerts every member; the sender's location; members'
 * "I'm on it"; resolving. Each change sends the whole alert as `sos_alert` to every device of every
 * current member (the sender's too), so a removed member hears no more of it. Alerts reach members
 * whatever blocks stand between them and the sender (decision 051).
 */
export class SosAlerts {
  /** SOS arms granted by this instance (`channelId:userId`) and their lapse timers. */
  private readonly armTimers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly deps: SosAlertsDeps) {}

  /** `POST /api/sos`: answers the alert and whether it is new (201) or an extension (200). */
  async raise(
    user: SessionUser,
    channelId: number,
  ): Promise<{ alert: SosAlert; created: boolean }> {
    const { db, counters } = this.deps;
    // An arm (decision 054) is left to lapse: the SOS floor now gives what it gave.
    const channel = await this.sosChannelOf(user, channelId);
    const seconds = channel.sosSeconds;
    const result = await raiseOrExtend(db, {
      channelId,
      senderId: user.id,
      talkUntil: new Date(Date.now() + seconds * 1000),
      extendWindowMs: SOS_EXTEND_WINDOW_MS,
      beforeCreate: async () => {
        const raised = await counters.counter('sos-raise', 3600).penalty(user.id);
        if (raised.consumedPoints > SOS_RAISES_PER_HOUR) throw tooManyRequests(SOS_TOO_MANY_RAISES);
      },
    });
    // Removed between the check and the transaction.
    if (!result) throw forbidden(SOS_NOT_MEMBER);
    const alertId = result.alert.id;
    const floor = await this.deps.floor.raiseSos(channelId, user.id, seconds, (expiresAt) => {
      // Queued behind another person's SOS: on the air now, until then.
      this.moveTalkUntil(alertId, expiresAt).catch((error: unknown) =>
        this.deps.log.error({ err: error, alertId }, 'queued SOS not announced'),
      );
    });
    const talkUntil = floor.granted ? floor.expiresAt : floor.queuedUntil + seconds * 1000;
    await setTalkUntil(db, alertId, new Date(talkUntil));
    const { alert, memberIds } = await this.announceTo(alertId);
    if (!result.extended)
      this.deps.pushes.raised(
        alert,
        memberIds.filter((id) => id !== user.id),
      );
    return { alert, created: !result.extended };
  }

  /**
   * `POST /api/sos/arm`, as the countdown starts (decision 054): the voice server lets the sender
   * publish a muted microphone until the SOS follows, so its first words need no new publication.
   * The arm lapses after `SOS_ARM_MS` (or at Cancel); a flood of countdowns is refused.
   */
  async arm(user: SessionUser, channelId: number): Promise<SosArmResponse> {
    await this.sosChannelOf(user, channelId);
    const voice = this.deps.voice();
    if (!voice.setSosArmed) return { armed: false };
    const armed = await this.deps.counters.counter('sos-arm', SOS_ARM_WINDOW_S).penalty(user.id);
    if (armed.consumedPoints > SOS_ARMS_PER_WINDOW) throw tooManyRequests(SOS_TOO_MANY_ARMS);
    const key = armKey(channelId, user.id);
    clearTimeout(this.armTimers.get(key));
    const timer = setTimeout(() => this.lapseArm(channelId, user.id), SOS_ARM_MS);
    timer.unref();
    this.armTimers.set(key, timer);
    await this.deps.arms.mark(channelId, user.id);
    if (await voice.setSosArmed(channelId, user.id, true)) {
      this.deps.armed?.(channelId);
      return { armed: true };
    }
    this.lapseArm(channelId, user.id);
    return { armed: false };
  }

  /** `POST /api/sos/disarm` (Cancel): the arm ends now. */
  async disarm(user: SessionUser, channelId: number): Promise<void> {
    await this.sosChannelOf(user, channelId);
    await this.unarm(channelId, user.id);
  }

  /**
   * The user's microphone went on air in the channel's voice room. An honest sender unmutes only
   * once the SOS holds the floor, so an arm still standing has done its work, or is being misused
   * by a modified client to talk over the floor: either way it ends now, and the rights are those
   * of the floor again (LiveKit lets a participant unmute itself, decision 052). Never throws.
   */
  unmuted(channelId: number, userId: string): void {
    this.deps.arms
      .isArmed(channelId, userId)
      .then(async (armed) => {
        if (!armed) return;
        this.deps.log.info({ channelId, userId }, 'SOS arm ended: the microphone went on air');
        await this.unarm(channelId, userId);
      })
      .catch((error: unknown) =>
        this.deps.log.error({ err: error, channelId, userId }, 'SOS arm not taken back'),
      );
  }

  /** The arm ends (its time is up, an SOS was raised, or Cancel); never throws. */
  private lapseArm(channelId: number, userId: string): void {
    if (!this.armTimers.has(armKey(channelId, userId))) return;
    this.unarm(channelId, userId).catch((error: unknown) =>
      this.deps.log.error({ err: error, channelId, userId }, 'SOS arm not taken back'),
    );
  }

  private async unarm(channelId: number, userId: string): Promise<void> {
    const key = armKey(channelId, userId);
    clearTimeout(this.armTimers.get(key));
    this.armTimers.delete(key);
    await this.deps.arms.unmark(channelId, userId);
    await this.deps.voice().setSosArmed?.(channelId, userId, false);
  }

  /** A group channel marked SOS that `user` is a member of; else the refusal a raise gives. */
  private async sosChannelOf(user: SessionUser, channelId: number) {
    const { db } = this.deps;
    const channel = await findChannel(db, channelId);
    // Unknown and not-mine answer alike: a raise never tells which channels exist.
    if (!channel || !(await findMembership(db, channelId, user.id)))
      throw forbidden(SOS_NOT_MEMBER);
    if (!channel.sos || channel.kind !== 'group') throw badRequest(SOS_NOT_SOS_CHANNEL);
    return channel;
  }

  /** `GET /api/sos`. */
  openAlerts(user: SessionUser): Promise<SosAlert[]> {
    return openAlertsOf(this.deps.db, user.id);
  }

  /** `PUT /api/sos/:id/location`: the sender's, while the alert is fresh and unresolved. */
  async locate(user: SessionUser, alertId: string, location: SosLocationBody): Promise<SosAlert> {
    const row = await this.visibleAlert(user, alertId);
    if (row.senderId !== user.id) throw forbidden(SOS_ONLY_SENDER_LOCATES);
    if (
      row.resolvedAt !== null ||
      Date.now() > (await this.lastRaisedAt(row)) + SOS_LOCATION_WINDOW_MS
    )
      throw conflict(SOS_LOCATION_CLOSED);
    const sent = await this.deps.counters
      .counter('sos-location', SOS_LOCATION_MIN_INTERVAL_S)
      .penalty(alertId);
    if (sent.consumedPoints > 1) throw tooManyRequests(SOS_LOCATION_TOO_SOON);
    if (!(await setLocation(this.deps.db, alertId, location))) throw conflict(SOS_LOCATION_CLOSED);
    return this.announce(alertId);
  }

  /** `POST /api/sos/:id/ack`: "I'm on it", by a member other than the sender; again changes nothing. */
  async ack(user: SessionUser, alertId: string): Promise<SosAlert> {
    const row = await this.visibleAlert(user, alertId);
    if (row.senderId === user.id) throw forbidden(SOS_SENDER_ACKS);
    if (row.resolvedAt === null && (await addAck(this.deps.db, alertId, user.id)))
      return this.announce(alertId);
    return this.view(alertId);
  }

  /** `POST /api/sos/:id/resolve`: the sender, a channel admin or a superadmin; ends the SOS floor. */
  async resolve(user: SessionUser, alertId: string): Promise<SosAlert> {
    const superadmin = user.subscriptionTier === 'superadmin';
    const row = await this.visibleAlert(user, alertId, superadmin);
    if (row.senderId !== user.id && !superadmin) {
      const membership = await findMembership(this.deps.db, row.channelId, user.id);
      if (membership?.role !== 'admin') throw forbidden(SOS_ONLY_SENDER_OR_ADMIN_RESOLVES);
    }
    if (!(await resolveAlert(this.deps.db, alertId, user.id))) throw conflict(SOS_ALREADY_RESOLVED);
    await this.deps.floor.endSos(row.channelId, row.senderId);
    return this.announce(alertId);
  }

  /** Audio of the alert was kept: members get the alert with it. Never throws. */
  audioKept(alertId: string): void {
    this.announce(alertId).catch((error: unknown) =>
      this.deps.log.error({ err: error, alertId }, 'SOS audio not announced'),
    );
  }

  /** The alert, for a current member of its channel (or anyone `readable`); else 404. */
  private async visibleAlert(
    user: SessionUser,
    alertId: string,
    readable = false,
  ): Promise<SosAlertRow> {
    const { db } = this.deps;
    const row = await findAlert(db, alertId);
    if (!row) throw notFound(SOS_ALERT_NOT_FOUND);
    if (!readable && !(await findMembership(db, row.channelId, user.id)))
      throw notFound(SOS_ALERT_NOT_FOUND);
    return row;
  }

  /** When the sender last raised or extended it: its talk time's start. */
  private async lastRaisedAt(row: SosAlertRow): Promise<number> {
    const channel = await findChannel(this.deps.db, row.channelId);
    const seconds = channel?.sosSeconds ?? 0;
    return Math.max(row.raisedAt.getTime(), row.talkUntil.getTime() - seconds * 1000);
  }

  private async moveTalkUntil(alertId: string, expiresAt: number): Promise<void> {
    await setTalkUntil(this.deps.db, alertId, new Date(expiresAt));
    await this.announce(alertId);
  }

  private async view(alertId: string): Promise<SosAlert> {
    const alert = await alertView(this.deps.db, alertId);
    if (!alert) throw notFound(SOS_ALERT_NOT_FOUND);
    return alert;
  }

  /** The whole alert to every device of every current member of its channel. */
  private async announce(alertId: string): Promise<SosAlert> {
    return (await this.announceTo(alertId)).alert;
  }

  /** `announce`, also saying whom it went to. */
  private async announceTo(alertId: string): Promise<{ alert: SosAlert; memberIds: string[] }> {
    const alert = await this.view(alertId);
    const message: SosAlertMessage = { type: 'sos_alert', alert };
    const memberIds = await memberIdsOf(this.deps.db, alert.channelId);
    await Promise.all(memberIds.map((userId) => this.deps.bus.publish(userTopic(userId), message)));
    return { alert, memberIds };
  }
}
