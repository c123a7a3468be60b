import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ChannelClientMessage } from '../../../protocol/sockets.js';
import type { ChannelListVersions } from '../memberships/channel-list-versions.js';
import { memberRows } from '../memberships/membership-store.js';
import type { Database } from '../db/database.js';
import { preparedPerDatabase } from '../db/prepared-query.js';
import { channelMembers } from '../db/schema.js';
import { channelTopic, type Bus } from '../realtime/bus.js';
import type { ClientSocket } from '../realtime/client-socket.js';
import type { SocketHub } from '../realtime/socket-hub.js';
import { MemberAnnouncer } from './member-announcer.js';
import type { MemberPresence, PresenceReader } from '../memberships/member-presence.js';
import {
  mergePresence,
  samePresence,
  type PresenceChange,
  type PresenceStore,
} from './presence-store.js';
import { PresenceTracker } from './presence-tracker.js';

/** Read whenever a user comes online or goes offline: built once, run with the user's id. */
const channelIdsOfUser = preparedPerDatabase((db) =>
  db
    .select({ channelId: channelMembers.channelId })
    .from(channelMembers)
    .where(eq(channelMembers.userId, sql.placeholder('userId')))
    .prepare('channel_ids_of_user'),
);

/** Read on every channel message (join_channel, talking): built once, run with the ids. */
const membershipOf = preparedPerDatabase((db) =>
  db
    .select({ userId: channelMembers.userId })
    .from(channelMembers)
    .where(
      and(
        eq(channelMembers.channelId, sql.placeholder('channelId')),
        eq(channelMembers.userId, sql.placeholder('userId')),
      ),
    )
    .limit(1)
    .prepare('membership_of'),
);

/** Channel lists kept (the oldest goes first): a user who drops and comes back is not read again. */
const KEPT_CHANNEL_LISTS = 50_000;

/**
 * Live presence (DESIGN §3 "Members and presence"): online while a `/ws` socket is open anywhere,
 * active in a channel after join_channel, talking after start_talking. A change of what a channel's
 * viewers see is pushed as member_update to them on every instance (coalesced per channel); a
 * message that changes nothing they see pushes nothing.
 */
export class PresenceService implements PresenceReader {
  private readonly tracker = new PresenceTracker();
  private readonly announcer: MemberAnnouncer;
  /** Each user's channels as read under their channel-list token (decision 053). */
  private readonly channelLists = new Map<string, { token: string; channels: Set<number> }>();

  constructor(
    private readonly deps: {
      db: Database;
      store: PresenceStore;
      /** Changes when a user gains a channel, on whichever instance. */
      versions: ChannelListVersions;
      bus: Bus;
      hub: SocketHub;
      log: FastifyBaseLogger;
    },
  ) {
    this.announcer = new MemberAnnouncer({
      rows: (channelId, userIds) => memberRows(deps.db, channelId, userIds),
      bus: deps.bus,
      onError: (error) => deps.log.error({ err: error }, 'member_update not published'),
      viewers: (channelId) => deps.hub.socketsOn(channelTopic(channelId)),
    });
    deps.store.onRestored?.(() => {
      this.restore().catch((error: unknown) =>
        deps.log.error({ err: error }, 'presence restore failed'),
      );
    });
  }

  /**
   * Another instance took this one for dead and announced its users offline: write them back and
   * announce whatever their channels' viewers now see differently.
   */
  private async restore(): Promise<void> {
    const users = this.tracker.userIds();
    this.deps.log.warn(
      { users: users.length },
      'presence: this instance was taken for dead; restoring its users',
    );
    for (const userId of users) await this.announceChange(userId, await this.save(userId));
  }

  async presenceIn(
    channelId: number,
    userIds: readonly string[],
  ): Promise<ReadonlyMap<string, MemberPresence>> {
    const states = await this.deps.store.read(userIds);
    const result = new Map<string, MemberPresence>();
    for (const [userId, list] of states) result.set(userId, mergePresence(list, channelId));
    return result;
  }

  /**
   * The sign-in sessions of the user with a visible page on any live instance: a device (push
   * subscription) of one of them is present and gets no push notification.
   */
  async visibleSessions(userId: string): Promise<Set<string>> {
    const states = (await this.deps.store.read([userId])).get(userId) ?? [];
    return new Set(states.flatMap((state) => state.visibleSessions ?? []));
  }

  /** `sessionId`: the sign-in session the socket rides on, for its page's visibility. */
  async socketOpened(socket: ClientSocket & { readonly sessionId?: string }): Promise<void> {
    this.tracker.open(socket.userId, socket.id, socket.sessionId);
    await this.deps.hub.add(socket);
    await this.announceChange(socket.userId, await this.save(socket.userId));
  }

  async socketClosed(socket: ClientSocket): Promise<void> {
    this.tracker.close(socket.userId, socket.id);
    await this.deps.hub.remove(socket);
    await this.announceChange(socket.userId, await this.save(socket.userId));
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
    const [membership] = await membershipOf(this.deps.db).execute({ channelId, userId });
    if (!membership) {
      this.deps.log.info(
        { userId, channelId, type: message.type },
        'socket message for a channel the user is not in',
      );
      return;
    }
    if (!this.tracker.joined(userId, socketId, channelId)) {
      this.tracker.join(userId, socketId, channelId);
      await this.deps.hub.join(socket, channelTopic(channelId));
    }
    if (message.type === 'join_channel')
      this.tracker.setListening(userId, socketId, channelId, message.listening ?? true);
    if (message.type === 'start_talking')
      this.tracker.setTalking(userId, socketId, channelId, true);
    if (message.type === 'stop_talking')
      this.tracker.setTalking(userId, socketId, channelId, false);
    await this.announceChange(userId, await this.save(userId));
  }

  /** The socket's page became visible or hidden: shared with every instance (no one else is told). */
  async setVisible(socket: ClientSocket, visible: boolean): Promise<void> {
    if (this.tracker.setVisible(socket.id, visible)) await this.save(socket.userId);
  }

  /**
   * The users gained a channel: told after the membership is committed and before their card in it
   * is read, so the next going online or offline on any instance reads their channels again.
   */
  channelsGained(userIds: readonly string[]): Promise<void> {
    return this.deps.versions.bump(userIds);
  }

  /** Whether the socket joined the channel (a member's join_channel). */
  isJoined(socket: ClientSocket, channelId: number): boolean {
    return this.tracker.joined(socket.userId, socket.id, channelId);
  }

  /** Whether the socket hears the channel now: joined it and ONLINE there (decision 016). */
  isListening(socket: ClientSocket, channelId: number): boolean {
    return this.tracker.listening(socket.userId, socket.id, channelId);
  }

  /** Takes a socket out of a channel it may no longer see (removed, or the channel was deleted). */
  async evict(socket: ClientSocket, channelId: number): Promise<void> {
    if (this.tracker.joined(socket.userId, socket.id, channelId))
      await this.leave(socket, channelId);
  }

  /** Users of a crashed instance: tell their channels what the surviving instances now know. */
  async reap(): Promise<void> {
    for (const userId of await this.deps.store.reapDeadInstances()) {
      const after = (await this.deps.store.read([userId])).get(userId) ?? [];
      for (const channelId of await this.channelsOf(userId)) {
        this.announcer.announce(channelId, userId, mergePresence(after, channelId));
      }
    }
  }

  close(): void {
    this.announcer.close();
  }

  private async leave(socket: ClientSocket, channelId: number): Promise<void> {
    this.tracker.leave(socket.userId, socket.id, channelId);
    await this.deps.hub.leave(socket, channelTopic(channelId));
    await this.announceChange(socket.userId, await this.save(socket.userId));
  }

  /**
   * Announces the channels whose card of the user changed with this save, judged on the states the
   * store answered atomically with it: going online or offline touches every channel of the user,
   * joining, leaving or talking only the channels named in the states.
   */
  private async announceChange(userId: string, change: PresenceChange): Promise<void> {
    const wasOnline = change.before.length > 0;
    const isOnline = change.after.length > 0;
    const named = new Set<number>();
    for (const state of [...change.before, ...change.after]) {
      for (const key of Object.keys(state.channels)) named.add(Number(key));
    }
    const channels = wasOnline === isOnline ? named : await this.channelsOf(userId);
    for (const channelId of channels) {
      const before = mergePresence(change.before, channelId);
      const after = mergePresence(change.after, channelId);
      if (!samePresence(before, after)) this.announcer.announce(channelId, userId, after);
    }
  }

  /**
   * The user's channels, read once per channel-list token: after a save, so a channel gained before
   * this read the token changed (bumped after its commit) or its new card was read after the save.
   * A channel the user lost may still be listed: its member rows no longer hold them, so announcing
   * there sends nothing.
   */
  private async channelsOf(userId: string): Promise<Set<number>> {
    const token = await this.deps.versions.read(userId);
    const kept = this.channelLists.get(userId);
    if (kept?.token === token) return kept.channels;
    const rows = await channelIdsOfUser(this.deps.db).execute({ userId });
    const channels = new Set(rows.map((row) => row.channelId));
    this.channelLists.delete(userId);
    this.channelLists.set(userId, { token, channels });
    if (this.channelLists.size > KEPT_CHANNEL_LISTS) {
      const oldest = this.channelLists.keys().next();
      if (!oldest.done) this.channelLists.delete(oldest.value);
    }
    return channels;
  }

  /** Saves this instance's view of the user; answers the states before and after, everywhere. */
  private save(userId: string): Promise<PresenceChange> {
    const state = this.tracker.stateOf(userId);
    return state ? this.deps.store.put(userId, state) : this.deps.store.remove(userId);
  }
}
