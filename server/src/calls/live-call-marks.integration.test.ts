import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryLiveCallMarks, RedisLiveCallMarks, type LiveCallMarks } from './live-call-marks.js';

const redisUrl = process.env.TEST_REDIS_URL;
const opened: LiveCallMarks[] = [];
const prefix = `chirp-marks-${randomBytes(4).toString('hex')}:`;

const kinds: { name: string; open: () => LiveCallMarks }[] = [
  { name: 'memory', open: () => new MemoryLiveCallMarks() },
  ...(redisUrl
    ? [{ name: 'redis', open: () => new RedisLiveCallMarks(redisUrl, prefix, () => undefined) }]
    : []),
];

afterAll(async () => {
  for (const marks of opened) await marks.close();
});

describe.each(kinds)('live-call marks in $name', ({ open }) => {
  const fresh = () => {
    const marks = open();
    opened.push(marks);
    return marks;
  };
  const id = () => randomBytes(6).toString('hex');

  it('holds a mark per call until each call was lowered, and never goes below nothing', async () => {
    const marks = fresh();
    const [ann, bob, cem] = [id(), id(), id()];
    await marks.raise([ann, bob]);
    await marks.raise([ann, cem]);
    expect(await marks.has(ann)).toBe(true);
    await marks.lower([ann, bob]);
    expect([await marks.has(ann), await marks.has(bob), await marks.has(cem)]).toEqual([
      true,
      false,
      true,
    ]);
    await marks.lower([ann, cem]);
    await marks.lower([ann, cem]); // lowered once too often (a crash, a retry): still nothing
    await marks.raise([ann, bob]);
    expect(await marks.has(ann)).toBe(true);
    await marks.lower([ann, bob]);
    expect(await marks.has(ann)).toBe(false);
  });

  it('marks the parties of the calls live in the database when it starts out empty', async () => {
    const marks = fresh();
    const [ann, bob] = [id(), id()];
    await marks.seed(async () => [{ callerId: ann, receiverId: bob }]);
    expect(await marks.has(bob)).toBe(true);
  });
});

describe.runIf(redisUrl)('live-call marks shared in Redis', () => {
  it('are seen by every instance, and seeded only by the first one to start', async () => {
    const shared = `chirp-marks-${randomBytes(4).toString('hex')}:`;
    const [first, second] = [0, 1].map(
      () => new RedisLiveCallMarks(redisUrl!, shared, () => undefined),
    );
    opened.push(first!, second!);
    const [ann, bob] = [randomBytes(6).toString('hex'), randomBytes(6).toString('hex')];
    await first!.seed(async () => [{ callerId: ann, receiverId: bob }]);
    await second!.seed(async () => [{ callerId: ann, receiverId: bob }]);
    expect(await second!.has(ann)).toBe(true);
    await second!.lower([ann, bob]);
    // One call, seeded once: one lowering on any instance clears it.
    expect(await first!.has(ann)).toBe(false);
  });
});
