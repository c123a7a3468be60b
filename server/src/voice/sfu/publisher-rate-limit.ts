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
  private packets: number = PUBLISHER_LIMITS.packetBurst;
  private bytes: number = PUBLISHER_LIMITS.byteBurst;
  private last: number | undefined;
  /** Packets dropped so far (for logs and tests). */
  dropped = 0;

  /** Whether a packet of `payloadBytes` arriving at `now` (epoch ms) may go on. */
  admit(payloadBytes: number, now: number): boolean {
    const elapsed = this.last === undefined ? 0 : Math.max(0, now - this.last) / 1000;
    this.last = now;
    this.packets = Math.min(
      PUBLISHER_LIMITS.packetBurst,
      this.packets + elapsed * PUBLISHER_LIMITS.packetsPerSecond,
    );
    this.bytes = Math.min(
      PUBLISHER_LIMITS.byteBurst,
      this.bytes + elapsed * PUBLISHER_LIMITS.bytesPerSecond,
    );
    if (this.packets < 1 || this.bytes < payloadBytes) {
      this.dropped++;
      return false;
    }
    this.packets -= 1;
    this.bytes -= payloadBytes;
    return true;
  }
}
