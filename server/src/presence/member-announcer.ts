import type { MemberUpdate } from '../../../protocol/sockets.js';
import { toChannelMember } from '../memberships/member-view.js';
import type { MemberRow } from '../memberships/membership-store.js';
import { channelTopic, type Bus } from '../realtime/bus.js';
import type { MemberPresence } from '../memberships/member-presence.js';

/** A channel's viewers get at most one batch of member cards per this many milliseconds. */
export const ANNOUNCE_INTERVAL_MS = 50;

interface ChannelQueue {
  /** The latest presence of each member that changed since the last batch. */
  pending: Map<string, MemberPresence>;
  /** Set for the rest of the interval after a batch: changes meanwhile wait for it. */
  timer: NodeJS.Timeout | undefined;
  flushing: boolean;
}

/**
 * Pushes `member_update` to a channel's viewers, coalesced per channel: the first change goes out
 * at once, later ones within `ANNOUNCE_INTERVAL_MS` wait and go out together with the latest state
 * of each member. However fast a member toggles, a channel's viewers get a bounded number of pushes,
 * and always end with the member's current state.
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
      intervalMs?: number;
    },
  ) {}

  private get interval(): number {
    return this.deps.intervalMs ?? ANNOUNCE_INTERVAL_MS;
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
        const wait = Math.max(0, startedAt + this.interval - Date.now());
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
