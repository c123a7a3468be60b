import { TokenBucket } from './token-bucket.js';

/**
 * What one published microphone may send through the SFU. A browser's Opus sends 50 packets a
 * second (20 ms frames; 100 with the 10 ms frames `minptime=10` allows) at about 32 kbit/s; a
 * hostile client can send a thousand packets a second, or full-size ones, and every packet costs
 * an encryption per listener. Both figures leave room for a browser's bursts after a stall.
 */
export const PUBLISHER_LIMITS = {
  packetsPerSecond: 120,
  packetBurst: 60,
  /** 128 kbit/s of RTP payload. */
  bytesPerSecond: 16_000,
  byteBurst: 16_000,
} as const;

/**
 * A token bucket for packets and one for payload bytes, per published track: a packet that finds
 * either empty is dropped (not forwarded, not recorded, not counted as speech). Synchronous and
 * allocation-free: it runs for every packet a publisher sends.
 */
export class PublisherRateLimit {
  private readonly packets = new TokenBucket(
    PUBLISHER_LIMITS.packetsPerSecond,
    PUBLISHER_LIMITS.packetBurst,
  );
  private readonly bytes = new TokenBucket(
    PUBLISHER_LIMITS.bytesPerSecond,
    PUBLISHER_LIMITS.byteBurst,
  );
  /** Packets dropped so far (for logs and tests). */
  dropped = 0;

  /** Whether a packet of `payloadBytes` arriving at `now` (epoch ms) may go on. */
  admit(payloadBytes: number, now: number): boolean {
    this.packets.refill(now);
    this.bytes.refill(now);
    if (!this.packets.has(1) || !this.bytes.has(payloadBytes)) {
      this.dropped++;
      return false;
    }
    this.packets.take(1);
    this.bytes.take(payloadBytes);
    return true;
  }
}
