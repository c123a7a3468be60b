import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MemberUpdate } from '../../../protocol/sockets.js';
import type { MemberRow } from '../memberships/membership-store.js';
import { channelTopic, InProcessBus } from '../realtime/bus.js';
import {
  ANNOUNCE_INTERVAL_MS,
  ANNOUNCE_MAX_INTERVAL_MS,
  ANNOUNCE_MS_PER_VIEWER,
  MemberAnnouncer,
} from './member-announcer.js';

const row = (userId: string): MemberRow => ({
  userId,
  email: `${userId}@example.com`,
  firstName: null,
  lastName: null,
  profileImageUrl: null,
  subscriptionTier: 'free',
  role: 'member',
  isMuted: false,
});
const presence = (isTalking: boolean) => ({ isOnline: true, isActiveInChannel: true, isTalking });
/** The announcer's clock and timers are faked: time passes only here, and promises settle meanwhile. */
const wait = (ms: number) => vi.advanceTimersByTimeAsync(ms);

async function setUp(intervalMs: number, viewers?: () => number) {
  const bus = new InProcessBus();
  const pushes: { at: number; member: MemberUpdate['member'] }[] = [];
  await bus.subscribe(channelTopic(1), (m) =>
    pushes.push({ at: Date.now(), member: (m as MemberUpdate).member }),
  );
  const announcer = new MemberAnnouncer({
    rows: async (_channelId, userIds) => userIds.map(row),
    bus,
    onError: (error) => {
      throw error;
    },
    intervalMs,
    ...(viewers ? { viewers } : {}),
  });
  return { announcer, pushes };
}

describe('MemberAnnouncer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('pushes the first change at once and a burst as one more push carrying the latest state', async () => {
    const { announcer, pushes } = await setUp(100);
    const started = Date.now();
    for (let i = 0; i < 1000; i++) announcer.announce(1, 'bea', presence(i % 2 === 0));
    await wait(0);
    // At once: before any time passed, not at the end of an interval.
    expect(pushes.map((p) => p.member.isTalking)).toEqual([true]);
    expect(pushes[0]!.at).toBe(started);
    await wait(99);
    expect(pushes).toHaveLength(1);
    await wait(1);
    expect(pushes.map((p) => p.member.isTalking)).toEqual([true, false]);
    expect(pushes[1]!.at).toBe(started + 100);
    announcer.close();
  });

  it('sends at most one batch per interval to a channel, one card per member that changed', async () => {
    const { announcer, pushes } = await setUp(50);
    const stop = Date.now() + 500;
    while (Date.now() < stop) {
      announcer.announce(1, 'bea', presence(Math.random() < 0.5));
      announcer.announce(1, 'cai', presence(Math.random() < 0.5));
      await wait(1);
    }
    announcer.announce(1, 'bea', presence(true));
    await wait(150);
    // 500 ms at one batch per 50 ms is at most 11 batches (the trailing one included), two cards each.
    expect(pushes.length).toBeLessThanOrEqual(2 * 11 + 2);
    expect(pushes.filter((p) => p.member.id === 'bea').at(-1)!.member.isTalking).toBe(true);
    announcer.close();
  });

  it('waits longer between batches for a channel with a large audience, up to a bound', async () => {
    let viewers = 1000;
    const { announcer, pushes } = await setUp(50, () => viewers);
    const started = Date.now();
    announcer.announce(1, 'bea', presence(true));
    await wait(0);
    announcer.announce(1, 'bea', presence(false));
    await wait(ANNOUNCE_INTERVAL_MS);
    expect(pushes).toHaveLength(1);
    await wait(1000 * ANNOUNCE_MS_PER_VIEWER - ANNOUNCE_INTERVAL_MS);
    expect(pushes.map((p) => p.at - started)).toEqual([0, 1000 * ANNOUNCE_MS_PER_VIEWER]);
    viewers = 1_000_000;
    announcer.announce(1, 'bea', presence(true));
    await wait(ANNOUNCE_MAX_INTERVAL_MS);
    expect(pushes.map((p) => p.member.isTalking)).toEqual([true, false, true]);
    announcer.close();
  });
});
