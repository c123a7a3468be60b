import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ChannelClientMessage, MemberUpdate } from '../../../protocol/sockets.js';
import { loadMember } from '../channels/member-view.js';
import { findMembership } from '../channels/membership-store.js';
import type { Database } from '../db/database.js';
import { channelMembers } from '../db/schema.js';
import { channelTopic, type Bus } from '../realtime/bus.js';
import type { ClientSocket, SocketHub } from '../realtime/socket-hub.js';
import type { MemberPresence, PresenceReader } from './presence-reader.js';
import { mergePresence, type PresenceStore } from './presence-store.js';
import { PresenceTracker } from './presence-tracker.js';

/**
 * Live presence (DESIGN §3 "Members and presence"): online while a `/ws` socket is open anywhere,
 * active in a channel after join_channel, talking after start_talking. Every change is pushed as
 * member_update to the channel's viewers on every instance.
 */
export class PresenceService implements PresenceReader {
  private readonly tracker = new PresenceTracker();

  constructor(
    private readonly deps: { db: Database; store: PresenceStore; bus: Bus; hub: SocketHub; log: FastifyBaseLogger },
  ) {
    deps.store.onRestored?.(() => {
      this.restore().catch((error: unknown) => deps.log.error({ err: error }, 'presence restore failed'));
    });
  }

  /** Writes back and re-announces every user of this instance, after another instance reaped it. */
  private async restore(): Promise<void> {
    const users = this.tracker.userIds();
    this.deps.log.warn({ users: users.length }, 'presence: this instance was taken for dead; restoring its users');
    for (const userId of users) {
      await this.save(userId);
      await this.announceEverywhere(userId);
    }
  }

  async presenceIn(channelId: number, userIds: readonly string[]): Promise<ReadonlyMap<string, MemberPresence>> {
    const states = await this.deps.store.read(userIds);
    const result = new Map<string, MemberPresence>();
    for (const [userId, list] of states) result.set(userId, mergePresence(list, channelId));
    return result;
  }

  async socketOpened(socket: ClientSocket): Promise<void> {
    this.tracker.open(socket.userId, socket.id);
    const first = await this.deps.hub.add(socket);
    await this.save(socket.userId);
    if (first) await this.announceEverywhere(socket.userId);
  }

  async socketClosed(socket: ClientSocket): Promise<void> {
    const channels = this.tracker.close(socket.userId, socket.id);
    const last = await this.deps.hub.remove(socket);
    await this.save(socket.userId);
    if (last) await this.announceEverywhere(socket.userId);
    else for (const channelId of channels) await this.announce(channelId, socket.userId);
  }

  /** Channel messages act for the socket's own user; a non-member's message changes nothing. */
  async handle(socket: ClientSocket, message: ChannelClientMessage): Promise<void> {
    const { channelId } = message;
    const { userId, id: socketId } = socket;
    if (message.type === 'leave_channel') {
      if (!this.tracker.joined(userId, socketId, channelId)) return;
      await this.leave(socket, channelId);
      return;
    }
    if (!(await findMembership(this.deps.db, channelId, userId))) {
      this.deps.log.info({ userId, channelId, type: message.type }, 'socket message for a channel the user is not in');
      return;
    }
    if (!this.tracker.joined(userId, socketId, channelId)) {
      this.tracker.join(userId, socketId, channelId);
      await this.deps.hub.join(socket, channelTopic(channelId));
    }
    if (message.type === 'start_talking') this.tracker.setTalking(userId, socketId, channelId, true);
    if (message.type === 'stop_talking') this.tracker.setTalking(userId, socketId, channelId, false);
    await this.save(userId);
    await this.announce(channelId, userId);
  }

  /** Takes a socket out of a channel it may no longer see (removed, or the channel was deleted). */
  async evict(socket: ClientSocket, channelId: number): Promise<void> {
    if (this.tracker.joined(socket.userId, socket.id, channelId)) await this.leave(socket, channelId);
  }

  /** Users of a crashed instance: tell their channels what the surviving instances now know. */
  async reap(): Promise<void> {
    for (const userId of await this.deps.store.reapDeadInstances()) await this.announceEverywhere(userId);
  }

  /** Publishes the member's current card to the channel's viewers on every instance. */
  async announce(channelId: number, userId: string): Promise<void> {
    const member = await loadMember(this.deps.db, this, channelId, userId);
    if (!member) return;
    const update: MemberUpdate = { type: 'member_update', channelId, member };
    await this.deps.bus.publish(channelTopic(channelId), update);
  }

  private async leave(socket: ClientSocket, channelId: number): Promise<void> {
    this.tracker.leave(socket.userId, socket.id, channelId);
    await this.deps.hub.leave(socket, channelTopic(channelId));
    await this.save(socket.userId);
    await this.announce(channelId, socket.userId);
  }

  private async announceEverywhere(userId: string): Promise<void> {
    const rows = await this.deps.db
      .select({ channelId: channelMembers.channelId })
      .from(channelMembers)
      .where(eq(channelMembers.userId, userId));
    for (const { channelId } of rows) await this.announce(channelId, userId);
  }

  private async save(userId: string): Promise<void> {
    const state = this.tracker.stateOf(userId);
    if (state) await this.deps.store.put(userId, state);
    else await this.deps.store.remove(userId);
  }
}
