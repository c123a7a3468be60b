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
import type { FloorGrant, FloorStore } from './floor-store.js';
import { isConnectedToChannelVoice } from './voice-connected.js';

/** A hold this instance granted: which socket pressed, and the timer that ends it at the limit. */
type LocalHold = { channelId: number; grant: FloorGrant; socketId: string; timer: NodeJS.Timeout };

/**
 * Walkie-talkie floor control: one talker at a time in a walkie channel. A press asks for
 * the floor, a release gives it back, and the channel's maximum transmission time takes it back.
 * A channel admin's press cuts in. The floor is the store's (Redis across instances); the voice
 * provider is told before anyone hears of a change, so the media path never lags the floor; then
 * every viewer of the channel gets `floor_state` over the bus. A refused press gets `floor_denied`.
 */
export class FloorService {
  private readonly holds = new Map<string, LocalHold>();

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
    if (!(await isConnectedToChannelVoice(db, socket.userId, channelId)))
      return this.deny(socket, channelId, 'not_in_voice', null);
    const grant: FloorGrant = {
      holderId: socket.userId,
      grantId: randomUUID(),
      expiresAt: Date.now() + row.maxSeconds * 1000,
    };
    const cutIn = row.role === 'admin' || row.tier === 'superadmin';
    const result = await store.acquire(channelId, grant, cutIn);
    if (!result.granted) {
      if (!result.holder) return this.deny(socket, channelId, 'too_soon', null);
      // Pressing again while holding it: the hold stays as granted (never renewed).
      if (result.holder.holderId === socket.userId)
        return socket.send(await this.stateMessage(channelId, result.holder));
      return this.deny(socket, channelId, 'busy', await this.holderOf(result.holder));
    }
    const previous = result.previous;
    if (previous) this.forget(previous.grantId);
    const timer = setTimeout(() => {
      this.expire(channelId, grant.grantId).catch((error: unknown) =>
        this.deps.log.error({ err: error, channelId }, 'floor expiry failed'),
      );
    }, grant.expiresAt - Date.now());
    timer.unref();
    this.holds.set(grant.grantId, { channelId, grant, socketId: socket.id, timer });
    await this.tellVoice(channelId, grant.holderId, previous?.holderId ?? null, grant.expiresAt);
    this.deps.onGranted?.(channelId, grant);
    const ended = previous ? 'cut_in' : undefined;
    await this.announce(channelId, grant, ended);
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

  /** The holder can no longer talk (admin-muted, removed): the floor is free again. */
  async userSilenced(channelId: number, userId: string): Promise<void> {
    const grant = await this.deps.store.current(channelId);
    if (grant?.holderId === userId) await this.end(channelId, grant.grantId);
  }

  /**
   * One of the user's voice connections in the channel ended (the SFU's leave, LiveKit's
   * participant_left, after its usage row closed): with none left they can no longer be heard, so a
   * floor they hold is free again at once instead of at its maximum.
   */
  async voiceLeft(channelId: number, userId: string): Promise<void> {
    const grant = await this.deps.store.current(channelId);
    if (grant?.holderId !== userId) return;
    if (await isConnectedToChannelVoice(this.deps.db, userId, channelId)) return;
    await this.end(channelId, grant.grantId);
  }

  /**
   * The channel's talk mode changed (already committed): nobody holds the floor any more, and the
   * voice provider carries everyone (open) or nobody until the next press (walkie).
   */
  async talkModeChanged(channelId: number, talkMode: ChannelTalkMode): Promise<void> {
    const { db, store } = this.deps;
    const previous = await store.clear(channelId);
    if (previous) this.forget(previous.grantId);
    const muted = await db
      .select({ userId: channelMembers.userId })
      .from(channelMembers)
      .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.isMuted, true)));
    await this.deps.provider().setFloor(channelId, {
      walkie: talkMode === 'walkie',
      holderId: null,
      previousHolderId: previous?.holderId ?? null,
      modeChanged: { mutedUserIds: muted.map((row) => row.userId) },
    });
    await this.announce(channelId, null);
  }

  /** The channel is gone: forget its floor. */
  async channelDeleted(channelId: number): Promise<void> {
    const previous = await this.deps.store.clear(channelId);
    if (previous) this.forget(previous.grantId);
  }

  close(): void {
    for (const hold of this.holds.values()) clearTimeout(hold.timer);
    this.holds.clear();
  }

  private async expire(channelId: number, grantId: string): Promise<void> {
    await this.end(channelId, grantId, 'expired');
  }

  private async end(channelId: number, grantId: string, ended?: 'expired'): Promise<void> {
    this.forget(grantId);
    const released = await this.deps.store.release(channelId, grantId);
    if (!released) return;
    await this.tellVoice(channelId, null, released.holderId);
    await this.announce(channelId, null, ended);
  }

  private forget(grantId: string): void {
    const hold = this.holds.get(grantId);
    if (!hold) return;
    clearTimeout(hold.timer);
    this.holds.delete(grantId);
  }

  private async tellVoice(
    channelId: number,
    holderId: string | null,
    previous: string | null,
    expiresAt: number | null = null,
  ) {
    try {
      await this.deps.provider().setFloor(channelId, {
        walkie: true,
        holderId,
        previousHolderId: previous,
        expiresAt,
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
