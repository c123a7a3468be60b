import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database.js';
import { createCounters, type Counters } from '../../limits/counters.js';
import { testDatabases } from '../../testing/test-databases.js';
import { delayFor, MAX_DELAY_MS, SignInSlowdown } from './sign-in-slowdown.js';

/** Real shared counters (the database, or Redis when the test environment has one). */
const stores = (): { name: string; redisUrl: string | undefined }[] => [
  { name: 'database', redisUrl: undefined },
  ...(process.env.TEST_REDIS_URL ? [{ name: 'redis', redisUrl: process.env.TEST_REDIS_URL }] : []),
];

describe('delayFor', () => {
  it('is free up to the allowance, then doubles from 1 s up to 30 s', () => {
    expect([1, 5, 6, 7, 8, 10, 11, 40].map((n) => delayFor(n, 5))).toEqual([0, 0, 1000, 2000, 4000, 16000, MAX_DELAY_MS, MAX_DELAY_MS]);
  });
});

describe.each(testDatabases())('the sign-in slow-down on $name', (database) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await database.open();
  });
  afterAll(async () => {
    await handle.close();
  });

  describe.each(stores())('with $name counters', ({ redisUrl }) => {
    let counters: Counters;
    /** Delays the slow-down asked for, instead of waiting them out. */
    let waited: number[];
    let slowdown: SignInSlowdown;
    let tag: string;

    beforeAll(() => {
      counters = createCounters({ db: handle.db, redisUrl, redisPrefix: `test-${Date.now()}-${Math.random()}:`, onError: () => undefined });
    });
    afterAll(() => counters.close());
    beforeEach(() => {
      waited = [];
      slowdown = new SignInSlowdown(counters, async (ms) => void waited.push(ms));
      tag = Math.random().toString(36).slice(2);
    });

    it('counts parallel wrong guesses each, so the later ones wait longer', async () => {
      const email = `victim-${tag}@example.com`;
      await Promise.all(
        Array.from({ length: 10 }, async () => (await slowdown.begin(email, `address-${tag}`)).failed()),
      );
      expect(waited.sort((a, b) => a - b)).toEqual([1000, 2000, 4000, 8000, 16000]);
    });

    it('never slows a correct password on an account under no attack, whatever the address did', async () => {
      const address = `sprayer-${tag}`;
      await Promise.all(
        Array.from({ length: 30 }, async (_, i) => (await slowdown.begin(`sprayed-${i}-${tag}@example.com`, address)).failed()),
      );
      expect(Math.max(...waited)).toBeGreaterThan(0);
      waited = [];
      await (await slowdown.begin(`innocent-${tag}@example.com`, address)).succeeded();
      expect(waited).toEqual([]);
    });

    it('slows even a correct password while its account is under attack, and gives its point back', async () => {
      const email = `target-${tag}@example.com`;
      for (let i = 0; i < 7; i++) await (await slowdown.begin(email, `attacker-${i}`)).failed();
      waited = [];
      await (await slowdown.begin(email, 'owner-home')).succeeded();
      expect(waited).toEqual([4000]);
      waited = [];
      // The success was not counted: the next wrong guess is the 8th failure, as before it.
      await (await slowdown.begin(email, 'attacker-x')).failed();
      expect(waited).toEqual([4000]);
    });

    it('does not count what is not a password guess', async () => {
      const email = `newcomer-${tag}@example.com`;
      for (let i = 0; i < 12; i++) await (await slowdown.begin(email, 'home')).uncounted();
      await (await slowdown.begin(email, 'home')).failed();
      expect(waited).toEqual([]);
    });
  });
});
