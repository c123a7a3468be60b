import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ChannelClientMessage, MemberUpdate } from '../../../protocol/sockets.js';
import { toChannelMember } from '../channels/member-view.js';
import { findMembership, memberRows } from '../channels/membership-store.js';
import type { Database } from '../db/database.js';
import { channelMembers } from '../db/schema.js';
import { channelTopic, type Bus } from '../realtime/bus.js';
import type { ClientSocket } from '../realtime/client-socket.js';
import type { SocketHub } from '../realtime/socket-hub.js';
import type { MemberPresence, PresenceReader } from './presence-reader.js';
import { mergePresence, type PresenceStore, type UserPresenceState } from './presence-store.js';
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
  ) {}

  async presenceIn(channelId: number, userIds: readonly string[]): Promise<ReadonlyMap<string, MemberPresence>> {
    const states = await this.deps.store.read(userIds);
    const result = new Map<string, MemberPresence>();
    for (const [userId, list] of states) result.set(userId, mergePresence(list, channelId));
    return result;
  }

  async socketOpened(socket: ClientSocket): Promise<void> {
    this.tracker.open(socket.userId, socket.id);
    const first = await this.deps.hub.add(socket);
    const states = await this.save(socket.userId);
    if (first) await this.announceEverywhere(socket.userId, states);
  }

  async socketClosed(socket: ClientSocket): Promise<void> {
    const channels = this.tracker.close(socket.userId, socket.id);
    const last = await this.deps.hub.remove(socket);
    const states = await this.save(socket.userId);
    if (last) await this.announceEverywhere(socket.userId, states);
    else for (const channelId of channels) await this.announce(channelId, socket.userId, states);
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
    if (message.type === 'join_channel') this.tracker.setListening(userId, socketId, channelId, message.listening ?? true);
    if (message.type === 'start_talking') this.tracker.setTalking(userId, socketId, channelId, true);
    if (message.type === 'stop_talking') this.tracker.setTalking(userId, socketId, channelId, false);
    await this.announce(channelId, userId, await this.save(userId));
  }

  /** Takes a socket out of a channel it may no longer see (removed, or the channel was deleted). */
  async evict(socket: ClientSocket, channelId: number): Promise<void> {
    if (this.tracker.joined(socket.userId, socket.id, channelId)) await this.leave(socket, channelId);
  }

  /** Users of a crashed instance: tell their channels what the surviving instances now know. */
  async reap(): Promise<void> {
    for (const userId of await this.deps.store.reapDeadInstances()) {
      const states = (await this.deps.store.read([userId])).get(userId) ?? [];
      await this.announceEverywhere(userId, states);
    }
  }

  /**
   * Publishes the member's card to the channel's viewers on every instance, with the presence the
   * store answered when this change was saved (no second read).
   */
  private async announce(channelId: number, userId: string, states: UserPresenceState[]): Promise<void> {
    const [row] = await memberRows(this.deps.db, channelId, [userId]);
    if (!row) return;
    const member = toChannelMember(row, mergePresence(states, channelId));
    const update: MemberUpdate = { type: 'member_update', channelId, member };
    await this.deps.bus.publish(channelTopic(channelId), update);
  }

  private async leave(socket: ClientSocket, channelId: number): Promise<void> {
    this.tracker.leave(socket.userId, socket.id, channelId);
    await this.deps.hub.leave(socket, channelTopic(channelId));
    await this.announce(channelId, socket.userId, await this.save(socket.userId));
  }

  private async announceEverywhere(userId: string, states: UserPresenceState[]): Promise<void> {
    const rows = await this.deps.db
      .select({ channelId: channelMembers.channelId })
      .from(channelMembers)
      .where(eq(channelMembers.userId, userId));
    for (const { channelId } of rows) await this.announce(channelId, userId, states);
  }

  /** Saves this instance's view of the user; answers the user's states on every live instance. */
  private save(userId: string): Promise<UserPresenceState[]> {
    const state = this.tracker.stateOf(userId);
    return state ? this.deps.store.put(userId, state) : this.deps.store.remove(userId);
  }
}
