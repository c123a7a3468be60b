import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FLOOR_EXPIRY_GRACE_MS,
  FLOOR_PAUSE_MS,
  MemoryFloorStore,
  RedisFloorStore,
  type FloorGrant,
  type FloorStore,
} from './floor-store.js';

const redisUrl = process.env.TEST_REDIS_URL;

/** The memory store runs on a clock the tests move; Redis keeps real time, with a short pause. */
let clock = Date.now();
const REDIS_PAUSE_MS = 150;
const stores: {
  name: string;
  make: () => FloorStore;
  now: () => number;
  /** Lets the user's pause after a hold pass. */
  pausePasses: () => Promise<void>;
}[] = [
  {
    name: 'memory',
    make: () => new MemoryFloorStore(() => clock),
    now: () => clock,
    pausePasses: async () => {
      clock += FLOOR_PAUSE_MS;
    },
  },
  ...(redisUrl
    ? [
        {
          name: 'Redis',
          make: () =>
            new RedisFloorStore(
              redisUrl,
              `chirp-test-${randomBytes(4).toString('hex')}:`,
              () => undefined,
              REDIS_PAUSE_MS,
            ),
          now: Date.now,
          pausePasses: () => new Promise<void>((resolve) => setTimeout(resolve, REDIS_PAUSE_MS + 50)),
        },
      ]
    : []),
];

let next = 0;

/** The floor's one truth, in memory on one instance and in Redis across several (CI runs both). */
describe.each(stores)('the walkie-talkie floor in $name', ({ make, now, pausePasses }) => {
  const grant = (holderId: string, ttlMs = 10_000): FloorGrant => ({
    holderId,
    grantId: `g${++next}`,
    expiresAt: now() + ttlMs,
  });
  const store = make();
  afterAll(() => store.close());

  it('grants one talker at a time; another user is refused and told who talks', async () => {
    const first = grant('ava');
    expect(await store.acquire(1, first, 'none')).toEqual({ granted: true, previous: null });
    const refused = await store.acquire(1, grant('ben'), 'none');
    expect(refused).toEqual({ granted: false, holder: first });
    expect((await store.current(1))?.holderId).toBe('ava');
    // Other channels have floors of their own.
    expect((await store.acquire(2, grant('ben'), 'none')).granted).toBe(true);
  });

  it('a channel admin cuts in; the old hold can no longer release the new one', async () => {
    const ava = grant('ava');
    await store.acquire(3, ava, 'none');
    const admin = grant('admin');
    expect(await store.acquire(3, admin, 'admin')).toEqual({ granted: true, previous: ava });
    expect(await store.release(3, ava.grantId)).toBeNull();
    expect((await store.current(3))?.holderId).toBe('admin');
    expect(await store.release(3, admin.grantId)).toEqual(admin);
    expect(await store.current(3)).toBeNull();
  });

  it('a hold is never renewed: pressing again, on any device or as an admin, keeps its end', async () => {
    const phone = grant('cai', 5_000);
    await store.acquire(4, phone, 'none');
    const again = grant('cai', 10_000);
    expect(await store.acquire(4, again, 'none')).toEqual({ granted: false, holder: phone });
    expect(await store.acquire(4, grant('cai', 10_000), 'admin')).toEqual({
      granted: false,
      holder: phone,
    });
    expect(await store.current(4)).toEqual(phone);
    expect(await store.release(4, again.grantId)).toBeNull();
    expect(await store.release(4, phone.grantId)).toEqual(phone);
  });

  it('a new hold by the same person waits for the pause; others need not', async () => {
    const first = grant('gus');
    await store.acquire(7, first, 'none');
    await store.release(7, first.grantId);
    expect(await store.acquire(7, grant('gus'), 'none')).toEqual({
      granted: false,
      holder: null,
      tooSoon: true,
    });
    // An admin's press does not skip their own pause either.
    expect((await store.acquire(7, grant('gus'), 'admin')).granted).toBe(false);
    const hal = grant('hal');
    expect((await store.acquire(7, hal, 'none')).granted).toBe(true);
    await store.release(7, hal.grantId);
    await pausePasses();
    expect((await store.acquire(7, grant('gus'), 'none')).granted).toBe(true);
  });

  it('a hold ends by itself shortly after its maximum transmission time', async () => {
    // The granting instance ends it on time; the store's own expiry waits a grace period longer.
    await store.acquire(5, grant('dee', 150 - FLOOR_EXPIRY_GRACE_MS), 'none');
    expect((await store.current(5))?.holderId).toBe('dee');
    clock += 300;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await store.current(5)).toBeNull();
    expect((await store.acquire(5, grant('eli'), 'none')).granted).toBe(true);
  });

  it('clear frees the floor whoever holds it', async () => {
    const fay = grant('fay');
    await store.acquire(6, fay, 'none');
    expect(await store.clear(6)).toEqual(fay);
    expect(await store.clear(6)).toBeNull();
  });

  it('an SOS takes the floor from a talker and from an admin, and no admin cuts into it', async () => {
    const talker = grant('ivy');
    await store.acquire(8, talker, 'none');
    const sos: FloorGrant = { ...grant('jon'), sos: true };
    expect(await store.acquire(8, sos, 'sos')).toEqual({ granted: true, previous: talker });
    expect(await store.acquire(8, grant('kim'), 'admin')).toEqual({ granted: false, holder: sos });
    expect(await store.acquire(8, grant('kim'), 'none')).toEqual({ granted: false, holder: sos });
    expect(await store.current(8)).toEqual(sos);
  });

  it("another person's SOS waits for the first; the sender's own SOS renews it, pause or not", async () => {
    const first: FloorGrant = { ...grant('lea'), sos: true };
    await store.acquire(9, first, 'sos');
    const second: FloorGrant = { ...grant('max'), sos: true };
    expect(await store.acquire(9, second, 'sos')).toEqual({ granted: false, holder: first });
    const extended: FloorGrant = { ...grant('lea', 20_000), sos: true };
    expect(await store.acquire(9, extended, 'sos')).toEqual({ granted: true, previous: first });
    // Released (its pause starts), the sender's next SOS is granted at once all the same.
    await store.release(9, extended.grantId);
    expect((await store.acquire(9, grant('lea'), 'none')).granted).toBe(false);
    expect((await store.acquire(9, { ...grant('lea'), sos: true }, 'sos')).granted).toBe(true);
  });
});
