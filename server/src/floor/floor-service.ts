import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type {
  ChannelTalkMode,
  FloorDenied,
  FloorHolder,
  FloorState,
} from '../../../protocol/floor.js';
import { displayName } from '../../../protocol/user.js';
import type { Database } from '../db/database.js';
import { channelMembers, channels, users } from '../db/schema.js';
import { channelTopic, type Bus } from '../realtime/bus.js';
import type { ClientSocket } from '../realtime/client-socket.js';
import type { FloorFollower } from './floor-follower.js';
import { FLOOR_EXPIRY_GRACE_MS, type FloorGrant, type FloorStore } from './floor-store.js';
import { isConnectedToChannelVoice } from './voice-connected.js';

/**
 * A hold this instance granted: which socket pressed (none for an SOS, which no release ends), and
 * the timer that ends it at the limit.
 */
type LocalHold = {
  channelId: number;
  grant: FloorGrant;
  socketId: string | null;
  timer: NodeJS.Timeout;
};

/** What raising an SOS did to the floor: granted until `expiresAt`, or queued behind another SOS. */
export type SosFloor = { granted: true; expiresAt: number } | { granted: false; queuedUntil: number };

/** An SOS waiting, on this instance, for another person's SOS to end. */
type QueuedSos = {
  userId: string;
  seconds: number;
  /** Told when the floor is finally granted (the alert's talkUntil moves there). */
  onGranted: (expiresAt: number) => void;
};

/** A queued SOS tries again this long after the SOS before it should have ended (another instance's). */
const QUEUE_RETRY_MS = FLOOR_EXPIRY_GRACE_MS + 100;

/**
 * Walkie-talkie floor control: one talker at a time in a walkie channel. A press asks for
 * the floor, a release gives it back, and the channel's maximum transmission time takes it back.
 * A channel admin's press cuts in. The floor is the store's (Redis across instances); the voice
 * provider is told before anyone hears of a change, so the media path never lags the floor; then
 * every viewer of the channel gets `floor_state` over the bus. A refused press gets `floor_denied`.
 */
export class FloorService {
  private readonly holds = new Map<string, LocalHold>();
  /** By channel: SOS raised here waiting for the air, first first. */
  private readonly sosQueue = new Map<number, QueuedSos[]>();
  private readonly queueTimers = new Map<number, NodeJS.Timeout>();

  constructor(
    private readonly deps: {
      db: Database;
      store: FloorStore;
      bus: Bus;
      /** The voice provider of the moment. */
      provider: () => FloorFollower;
      log: FastifyBaseLogger;
      /**
       * This instance granted the floor (LiveKit records the transmission from here on, until
       * the grant's `expiresAt` at the latest).
       */
      onGranted?: (channelId: number, grant: FloorGrant) => void;
    },
  ) {}

  /** `floor_request`: the socket's user pressed to talk. */
  async request(socket: ClientSocket, channelId: number): Promise<void> {
    const { db, store } = this.deps;
    const [row] = await db
      .select({
        talkMode: channels.talkMode,
        maxSeconds: channels.maxTransmissionSeconds,
        role: channelMembers.role,
        isMuted: channelMembers.isMuted,
        tier: users.subscriptionTier,
      })
      .from(channelMembers)
      .innerJoin(channels, eq(channels.id, channelMembers.channelId))
      .innerJoin(users, eq(users.id, channelMembers.userId))
      .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.userId, socket.userId)))
      .limit(1);
    if (!row) {
      this.deps.log.info({ userId: socket.userId, channelId }, 'floor asked for by a non-member');
      return;
    }
    if (row.talkMode !== 'walkie') return this.deny(socket, channelId, 'open_channel', null);
    if (row.isMuted) return this.deny(socket, channelId, 'muted', null);
    // Only a voice connection can be heard; a press without one would only jam the channel.
    if (!(await this.inVoice(socket.userId, channelId)))
      return this.deny(socket, channelId, 'not_in_voice', null);
    const grant: FloorGrant = {
      holderId: socket.userId,
      grantId: randomUUID(),
      expiresAt: Date.now() + row.maxSeconds * 1000,
    };
    const cutIn = row.role === 'admin' || row.tier === 'superadmin';
    const result = await store.acquire(channelId, grant, cutIn ? 'admin' : 'none');
    if (!result.granted) {
      if (!result.holder) return this.deny(socket, channelId, 'too_soon', null);
      // Pressing again while holding it: the hold stays as granted (never renewed).
      if (result.holder.holderId === socket.userId)
        return socket.send(await this.stateMessage(channelId, result.holder));
      return this.deny(socket, channelId, 'busy', await this.holderOf(result.holder));
    }
    const previous = result.previous;
    if (previous) this.forget(previous.grantId);
    this.holdHere(channelId, grant, socket.id);
    await this.tellVoice(channelId, grant, previous?.holderId ?? null);
    this.deps.onGranted?.(channelId, grant);
    const ended = previous ? 'cut_in' : undefined;
    await this.announce(channelId, grant, ended);
  }

  /**
   * The user has a voice connection in the channel: a usage row the voice server opened says so,
   * else the voice server's own list (its join may not be reported yet).
   */
  private async inVoice(userId: string, channelId: number): Promise<boolean> {
    if (await isConnectedToChannelVoice(this.deps.db, userId, channelId)) return true;
    const connected = await this.deps
      .provider()
      .hasConnection?.(channelId, userId)
      .catch((error: unknown) => {
        this.deps.log.warn({ err: error, channelId }, 'voice server not asked for a connection');
        return false;
      });
    return connected === true;
  }

  /**
   * An SOS (decision 050): the sender holds the channel's floor for `seconds` from now, in a walkie
   * or an open channel (the voice provider carries only them meanwhile), connected to voice or not.
   * It takes the floor from anyone but another person's SOS; then it waits until that one ends
   * (`onGranted` tells when it finally goes on the air). The sender's own SOS again is an extension.
   * The end timer runs here; the store's expiry is the fallback when this instance dies.
   */
  async raiseSos(
    channelId: number,
    userId: string,
    seconds: number,
    onGranted: (expiresAt: number) => void = () => undefined,
  ): Promise<SosFloor> {
    const queued = this.sosQueue.get(channelId);
    const waiting = queued?.find((entry) => entry.userId === userId);
    if (waiting) {
      waiting.seconds = seconds;
      const holder = await this.deps.store.current(channelId);
      return { granted: false, queuedUntil: holder?.expiresAt ?? Date.now() };
    }
    const taken = await this.takeSos(channelId, userId, seconds);
    if ('expiresAt' in taken) return { granted: true, expiresAt: taken.expiresAt };
    this.sosQueue.set(channelId, [...(queued ?? []), { userId, seconds, onGranted }]);
    this.retryQueueAt(channelId, taken.holder.expiresAt);
    return { granted: false, queuedUntil: taken.holder.expiresAt };
  }

  /** The SOS is over (resolved): its hold ends now, or it no longer waits for the air. */
  async endSos(channelId: number, userId: string): Promise<void> {
    this.unqueue(channelId, userId);
    const grant = await this.deps.store.current(channelId);
    if (grant?.sos && grant.holderId === userId) await this.end(channelId, grant.grantId);
  }

  private async takeSos(
    channelId: number,
    userId: string,
    seconds: number,
  ): Promise<{ expiresAt: number } | { holder: FloorGrant }> {
    const grant: FloorGrant = {
      holderId: userId,
      grantId: randomUUID(),
      expiresAt: Date.now() + seconds * 1000,
      sos: true,
    };
    const result = await this.deps.store.acquire(channelId, grant, 'sos');
    if (!result.granted) return { holder: result.holder! };
    const previous = result.previous;
    if (previous) this.forget(previous.grantId);
    this.holdHere(channelId, grant, null);
    await this.tellVoice(channelId, grant, previous?.holderId ?? null);
    this.deps.onGranted?.(channelId, grant);
    const cutIn = previous && previous.holderId !== userId ? 'cut_in' : undefined;
    await this.announce(channelId, grant, cutIn);
    return { expiresAt: grant.expiresAt };
  }

  /** The next SOS waiting here for the channel's air tries to take it (the one before it ended). */
  private async nextSos(channelId: number): Promise<void> {
    const queued = this.sosQueue.get(channelId);
    const next = queued?.[0];
    if (!next) return;
    const taken = await this.takeSos(channelId, next.userId, next.seconds);
    if ('holder' in taken) return this.retryQueueAt(channelId, taken.holder.expiresAt);
    this.unqueue(channelId, next.userId);
    next.onGranted(taken.expiresAt);
    if (this.sosQueue.has(channelId)) this.retryQueueAt(channelId, taken.expiresAt);
  }

  /** The SOS before may have been raised on another instance: try again once it should be over. */
  private retryQueueAt(channelId: number, expiresAt: number): void {
    clearTimeout(this.queueTimers.get(channelId));
    const timer = setTimeout(
      () => {
        this.queueTimers.delete(channelId);
        this.nextSos(channelId).catch((error: unknown) =>
          this.deps.log.error({ err: error, channelId }, 'queued SOS not granted'),
        );
      },
      Math.max(0, expiresAt - Date.now()) + QUEUE_RETRY_MS,
    );
    timer.unref();
    this.queueTimers.set(channelId, timer);
  }

  private unqueue(channelId: number, userId?: string): void {
    const rest = (this.sosQueue.get(channelId) ?? []).filter(
      (entry) => userId !== undefined && entry.userId !== userId,
    );
    if (rest.length > 0) return void this.sosQueue.set(channelId, rest);
    this.sosQueue.delete(channelId);
    clearTimeout(this.queueTimers.get(channelId));
    this.queueTimers.delete(channelId);
  }

  private holdHere(channelId: number, grant: FloorGrant, socketId: string | null): void {
    const timer = setTimeout(() => {
      this.expire(channelId, grant.grantId).catch((error: unknown) =>
        this.deps.log.error({ err: error, channelId }, 'floor expiry failed'),
      );
    }, grant.expiresAt - Date.now());
    timer.unref();
    this.holds.set(grant.grantId, { channelId, grant, socketId, timer });
  }

  /** `floor_release`: the socket gives back the floor it holds (a stale release changes nothing). */
  async release(socket: ClientSocket, channelId: number): Promise<void> {
    for (const hold of [...this.holds.values()]) {
      if (hold.socketId === socket.id && hold.channelId === channelId)
        await this.end(hold.channelId, hold.grant.grantId);
    }
  }

  /** The socket closed or left the channel: whatever it held is given back. */
  async socketGone(socket: ClientSocket, channelId?: number): Promise<void> {
    for (const hold of [...this.holds.values()]) {
      if (hold.socketId !== socket.id) continue;
      if (channelId === undefined || hold.channelId === channelId)
        await this.end(hold.channelId, hold.grant.grantId);
    }
  }

  /** Tells a socket that just joined the channel who holds the floor, if anyone. */
  async sendState(socket: ClientSocket, channelId: number): Promise<void> {
    const grant = await this.deps.store.current(channelId);
    if (!grant) return;
    socket.send(await this.stateMessage(channelId, grant));
  }

  /** Who holds the channel's floor now, if anyone. */
  async currentHolderId(channelId: number): Promise<string | null> {
    return (await this.deps.store.current(channelId))?.holderId ?? null;
  }

  /**
   * The holder can no longer talk (admin-muted, removed): the floor is free again. An SOS is heard
   * even when its sender is admin-muted (decision 050): only their removal ends it.
   */
  async userSilenced(channelId: number, userId: string): Promise<void> {
    const grant = await this.deps.store.current(channelId);
    if (grant?.holderId !== userId) return;
    if (grant.sos && (await this.isMember(channelId, userId))) return;
    this.unqueue(channelId, userId);
    await this.end(channelId, grant.grantId);
  }

  /**
   * One of the user's voice connections in the channel ended (the SFU's leave, LiveKit's
   * participant_left, after its usage row closed): with none left they can no longer be heard, so a
   * floor they hold is free again at once instead of at its maximum.
   */
  async voiceLeft(channelId: number, userId: string): Promise<void> {
    const grant = await this.deps.store.current(channelId);
    if (grant?.holderId !== userId) return;
    // An SOS is granted whether or not its sender is (still) connected: it ends at its time.
    if (grant.sos) return;
    if (await isConnectedToChannelVoice(this.deps.db, userId, channelId)) return;
    await this.end(channelId, grant.grantId);
  }

  /**
   * The channel's talk mode changed (already committed): nobody holds the floor any more, and the
   * voice provider carries everyone (open) or nobody until the next press (walkie).
   */
  async talkModeChanged(channelId: number, talkMode: ChannelTalkMode): Promise<void> {
    const { store } = this.deps;
    const current = await store.current(channelId);
    if (current?.sos) {
      // An SOS keeps the air through a change of mode; its end brings the new mode in.
      await this.deps.provider().setFloor(channelId, {
        walkie: true,
        holderId: current.holderId,
        previousHolderId: null,
        expiresAt: current.expiresAt,
        sos: true,
        modeChanged: { mutedUserIds: await this.mutedUserIds(channelId) },
      });
      return;
    }
    const previous = await store.clear(channelId);
    if (previous) this.forget(previous.grantId);
    await this.tellMode(channelId, talkMode, previous?.holderId ?? null);
    await this.announce(channelId, null);
  }

  /** The channel is gone: forget its floor (an SOS on it ends with it). */
  async channelDeleted(channelId: number): Promise<void> {
    this.unqueue(channelId);
    const previous = await this.deps.store.clear(channelId);
    if (previous) this.forget(previous.grantId);
  }

  close(): void {
    for (const hold of this.holds.values()) clearTimeout(hold.timer);
    this.holds.clear();
    for (const timer of this.queueTimers.values()) clearTimeout(timer);
    this.queueTimers.clear();
    this.sosQueue.clear();
  }

  /** The voice provider carries the channel's talk mode: everyone (open, admin mutes kept) or the floor. */
  private async tellMode(
    channelId: number,
    talkMode: ChannelTalkMode,
    previousHolderId: string | null,
  ): Promise<void> {
    await this.deps.provider().setFloor(channelId, {
      walkie: talkMode === 'walkie',
      holderId: null,
      previousHolderId,
      modeChanged: { mutedUserIds: await this.mutedUserIds(channelId) },
    });
  }

  private async mutedUserIds(channelId: number): Promise<string[]> {
    const muted = await this.deps.db
      .select({ userId: channelMembers.userId })
      .from(channelMembers)
      .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.isMuted, true)));
    return muted.map((row) => row.userId);
  }

  private async isMember(channelId: number, userId: string): Promise<boolean> {
    const [row] = await this.deps.db
      .select({ userId: channelMembers.userId })
      .from(channelMembers)
      .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.userId, userId)))
      .limit(1);
    return row !== undefined;
  }

  private async expire(channelId: number, grantId: string): Promise<void> {
    await this.end(channelId, grantId, 'expired');
  }

  private async end(channelId: number, grantId: string, ended?: 'expired'): Promise<void> {
    this.forget(grantId);
    const released = await this.deps.store.release(channelId, grantId);
    if (!released) return;
    const [channel] = released.sos
      ? await this.deps.db
          .select({ talkMode: channels.talkMode })
          .from(channels)
          .where(eq(channels.id, channelId))
          .limit(1)
      : [];
    // An SOS in an open channel made it walkie for its seconds: everyone is carried again.
    if (channel?.talkMode === 'open') await this.tellModeSafely(channelId, released.holderId);
    else await this.tellVoice(channelId, null, released.holderId);
    await this.announce(channelId, null, ended);
    if (released.sos) await this.nextSos(channelId);
  }

  private async tellModeSafely(channelId: number, previousHolderId: string): Promise<void> {
    try {
      await this.tellMode(channelId, 'open', previousHolderId);
    } catch (error) {
      this.deps.log.error({ err: error, channelId }, 'voice server did not reopen the channel');
    }
  }

  private forget(grantId: string): void {
    const hold = this.holds.get(grantId);
    if (!hold) return;
    clearTimeout(hold.timer);
    this.holds.delete(grantId);
  }

  private async tellVoice(channelId: number, holder: FloorGrant | null, previous: string | null) {
    try {
      await this.deps.provider().setFloor(channelId, {
        walkie: true,
        holderId: holder?.holderId ?? null,
        previousHolderId: previous,
        expiresAt: holder?.expiresAt ?? null,
        ...(holder?.sos ? { sos: true } : {}),
      });
    } catch (error) {
      // The floor still changes for everyone; the log says the voice server did not follow.
      this.deps.log.error({ err: error, channelId }, 'voice server did not follow the floor');
    }
  }

  private async announce(
    channelId: number,
    grant: FloorGrant | null,
    ended?: FloorState['ended'],
  ): Promise<void> {
    const message = grant
      ? await this.stateMessage(channelId, grant, ended)
      : ({
          type: 'floor_state',
          channelId,
          holder: null,
          expiresAt: null,
          ...(ended ? { ended } : {}),
        } satisfies FloorState);
    await this.deps.bus.publish(channelTopic(channelId), message);
  }

  private async stateMessage(
    channelId: number,
    grant: FloorGrant,
    ended?: FloorState['ended'],
  ): Promise<FloorState> {
    return {
      type: 'floor_state',
      channelId,
      holder: await this.holderOf(grant),
      expiresAt: grant.expiresAt,
      ...(ended ? { ended } : {}),
      ...(grant.sos ? { sos: true } : {}),
    };
  }

  private async holderOf(grant: FloorGrant): Promise<FloorHolder> {
    const [user] = await this.deps.db
      .select()
      .from(users)
      .where(eq(users.id, grant.holderId))
      .limit(1);
    return { id: grant.holderId, name: user ? displayName(user) : '' };
  }

  private deny(
    socket: ClientSocket,
    channelId: number,
    reason: FloorDenied['reason'],
    holder: FloorHolder | null,
  ): void {
    socket.send({ type: 'floor_denied', channelId, reason, holder } satisfies FloorDenied);
  }
}
