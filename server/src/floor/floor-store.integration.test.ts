import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FLOOR_EXPIRY_GRACE_MS,
  MemoryFloorStore,
  RedisFloorStore,
  type FloorGrant,
  type FloorStore,
} from './floor-store.js';

const redisUrl = process.env.TEST_REDIS_URL;

const stores: { name: string; make: () => FloorStore }[] = [
  { name: 'memory', make: () => new MemoryFloorStore() },
  ...(redisUrl
    ? [
        {
          name: 'Redis',
          make: () =>
            new RedisFloorStore(
              redisUrl,
              `chirp-test-${randomBytes(4).toString('hex')}:`,
              () => undefined,
            ),
        },
      ]
    : []),
];

let next = 0;
const grant = (holderId: string, ttlMs = 10_000): FloorGrant => ({
  holderId,
  grantId: `g${++next}`,
  expiresAt: Date.now() + ttlMs,
});

/** The floor's one truth, in memory on one instance and in Redis across several (CI runs both). */
describe.each(stores)('the walkie-talkie floor in $name', ({ make }) => {
  const store = make();
  afterAll(() => store.close());

  it('grants one talker at a time; another user is refused and told who talks', async () => {
    const first = grant('ava');
    expect(await store.acquire(1, first, false)).toEqual({ granted: true, previous: null });
    const refused = await store.acquire(1, grant('ben'), false);
    expect(refused).toEqual({ granted: false, holder: first });
    expect((await store.current(1))?.holderId).toBe('ava');
    // Other channels have floors of their own.
    expect((await store.acquire(2, grant('ben'), false)).granted).toBe(true);
  });

  it('a channel admin cuts in; the old hold can no longer release the new one', async () => {
    const ava = grant('ava');
    await store.acquire(3, ava, false);
    const admin = grant('admin');
    expect(await store.acquire(3, admin, true)).toEqual({ granted: true, previous: ava });
    expect(await store.release(3, ava.grantId)).toBeNull();
    expect((await store.current(3))?.holderId).toBe('admin');
    expect(await store.release(3, admin.grantId)).toEqual(admin);
    expect(await store.current(3)).toBeNull();
  });

  it('the same user pressing on another device takes over their own hold', async () => {
    const phone = grant('cai');
    await store.acquire(4, phone, false);
    const laptop = grant('cai');
    expect(await store.acquire(4, laptop, false)).toEqual({ granted: true, previous: phone });
    expect(await store.release(4, phone.grantId)).toBeNull();
    expect((await store.current(4))?.grantId).toBe(laptop.grantId);
  });

  it('a hold ends by itself shortly after its maximum transmission time', async () => {
    // The granting instance ends it on time; the store's own expiry waits a grace period longer.
    await store.acquire(5, grant('dee', 150 - FLOOR_EXPIRY_GRACE_MS), false);
    expect((await store.current(5))?.holderId).toBe('dee');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await store.current(5)).toBeNull();
    expect((await store.acquire(5, grant('eli'), false)).granted).toBe(true);
  });

  it('clear frees the floor whoever holds it', async () => {
    const fay = grant('fay');
    await store.acquire(6, fay, false);
    expect(await store.clear(6)).toEqual(fay);
    expect(await store.clear(6)).toBeNull();
  });
});
