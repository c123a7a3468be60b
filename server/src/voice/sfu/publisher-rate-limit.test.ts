import { describe, expect, it } from 'vitest';
import { PUBLISHER_LIMITS, PublisherRateLimit } from './publisher-rate-limit.js';

/** Sends `count` packets of `bytes` evenly over `ms` from `start`; answers how many went on. */
function send(limit: PublisherRateLimit, start: number, ms: number, count: number, bytes: number) {
  let admitted = 0;
  for (let i = 0; i < count; i++) if (limit.admit(bytes, start + (i * ms) / count)) admitted++;
  return admitted;
}

describe('a publisher’s packet and byte limits', () => {
  it('lets a talking browser through whole: 50 packets a second of 32 kbit/s Opus, or 100 of 10 ms frames', () => {
    const limit = new PublisherRateLimit();
    expect(send(limit, 0, 60_000, 3_000, 80)).toBe(3_000);
    expect(send(limit, 60_000, 10_000, 1_000, 60)).toBe(1_000);
    // A burst after a network stall (a second's packets at once) passes too.
    expect(send(limit, 71_000, 1, 50, 80)).toBe(50);
  });

  it('holds a flood of a thousand packets a second to the packet rate', () => {
    const limit = new PublisherRateLimit();
    const admitted = send(limit, 0, 10_000, 10_000, 20);
    expect(admitted).toBeLessThanOrEqual(
      PUBLISHER_LIMITS.packetBurst + 10 * PUBLISHER_LIMITS.packetsPerSecond,
    );
    expect(admitted).toBeGreaterThan(10 * PUBLISHER_LIMITS.packetsPerSecond - 10);
    expect(limit.dropped).toBe(10_000 - admitted);
  });

  it('holds full-size packets to the byte rate', () => {
    const limit = new PublisherRateLimit();
    const admitted = send(limit, 0, 10_000, 500, 1_200);
    expect(admitted * 1_200).toBeLessThanOrEqual(
      PUBLISHER_LIMITS.byteBurst + 10 * PUBLISHER_LIMITS.bytesPerSecond,
    );
    expect(admitted).toBeLessThan(500 / 2);
  });
});
