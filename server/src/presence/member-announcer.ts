import type { MemberUpdate } from '../../../protocol/sockets.js';
import { toChannelMember } from '../memberships/member-view.js';
import type { MemberRow } from '../memberships/membership-store.js';
import { channelTopic, type Bus } from '../realtime/bus.js';
import type { MemberPresence } from '../memberships/member-presence.js';

/** A channel's viewers get at most one batch of member cards per this many milliseconds. */
export const ANNOUNCE_INTERVAL_MS = 50;
/**
 * A channel watched by many waits longer between batches: this much per viewer on this instance.
 * Each batch costs every viewer a write (a system call of ~10 µs), so a channel's batches stay near
 * 5 % of a core however large its audience; and in a reconnect storm more of the members who drop
 * and come back do so within one batch, which then carries one card for them instead of two.
 */
export const ANNOUNCE_MS_PER_VIEWER = 0.2;
/** However large the audience, a change waits no longer than this. */
export const ANNOUNCE_MAX_INTERVAL_MS = 1000;

interface ChannelQueue {
  /** The latest presence of each member that changed since the last batch. */
  pending: Map<string, MemberPresence>;
  /** Set for the rest of the interval after a batch: changes meanwhile wait for it. */
  timer: NodeJS.Timeout | undefined;
  flushing: boolean;
}

/**
 * Pushes `member_update` to a channel's viewers, coalesced per channel: the first change goes out
 * at once, later ones within the interval (`ANNOUNCE_INTERVAL_MS`, longer for a large audience)
 * wait and go out together with the latest state of each member. However fast a member toggles, a
 * channel's viewers get a bounded number of pushes, and always end with the member's current state.
 */
export class MemberAnnouncer {
  private readonly channels = new Map<number, ChannelQueue>();
  private closed = false;

  constructor(
    private readonly deps: {
      /** The member rows (name, role, mute) of those users, read when a batch goes out. */
      rows: (channelId: number, userIds: string[]) => Promise<MemberRow[]>;
      bus: Bus;
      onError: (error: unknown) => void;
      /** The channel's viewers on this instance (sockets that joined it). */
      viewers?: (channelId: number) => number;
      /** The least interval (ANNOUNCE_INTERVAL_MS unless a test says). */
      intervalMs?: number;
    },
  ) {}

  private interval(channelId: number): number {
    const least = this.deps.intervalMs ?? ANNOUNCE_INTERVAL_MS;
    const forAudience = (this.deps.viewers?.(channelId) ?? 0) * ANNOUNCE_MS_PER_VIEWER;
    return Math.min(ANNOUNCE_MAX_INTERVAL_MS, Math.max(least, forAudience));
  }

  announce(channelId: number, userId: string, presence: MemberPresence): void {
    if (this.closed) return;
    let queue = this.channels.get(channelId);
    if (!queue) {
      queue = { pending: new Map(), timer: undefined, flushing: false };
      this.channels.set(channelId, queue);
    }
    queue.pending.set(userId, presence);
    // A running batch or a pending timer picks the change up; otherwise the channel is quiet: go now.
    if (!queue.timer && !queue.flushing) this.flush(channelId, queue);
  }

  close(): void {
    this.closed = true;
    for (const queue of this.channels.values()) clearTimeout(queue.timer);
    this.channels.clear();
  }

  private flush(channelId: number, queue: ChannelQueue): void {
    const batch = queue.pending;
    queue.pending = new Map();
    queue.flushing = true;
    const startedAt = Date.now();
    void this.publish(channelId, batch)
      .catch(this.deps.onError)
      .finally(() => {
        queue.flushing = false;
        if (this.closed) return;
        const wait = Math.max(0, startedAt + this.interval(channelId) - Date.now());
        queue.timer = setTimeout(() => {
          queue.timer = undefined;
          if (queue.pending.size > 0) this.flush(channelId, queue);
          else this.channels.delete(channelId);
        }, wait);
        queue.timer.unref();
      });
  }

  private async publish(channelId: number, batch: Map<string, MemberPresence>): Promise<void> {
    if (batch.size === 0) return;
    const rows = await this.deps.rows(channelId, [...batch.keys()]);
    for (const row of rows) {
      const member = toChannelMember(row, batch.get(row.userId));
      const update: MemberUpdate = { type: 'member_update', channelId, member };
      await this.deps.bus.publish(channelTopic(channelId), update);
    }
  }
}
