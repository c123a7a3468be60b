/**
 * The payload of a bench packet: an Opus-looking frame that carries the publisher's packet index
 * and the monotonic time it was handed to the publisher's peer connection. Every bench process on
 * the machine reads the same CLOCK_MONOTONIC, so a subscriber's arrival time minus `sentAtUs` is
 * the path's delay, whichever server forwarded it.
 */
const MAGIC = 0xbe4c;
/** Opus TOC byte: CELT fullband 20 ms, mono, one frame (the servers never decode it). */
const OPUS_TOC = 0xf8;
export const BENCH_PAYLOAD_BYTES = 80; // ~32 kbit/s voice
/**
 * The payload of a voice packet with Opus RED (RFC 2198), as LiveKit and Chrome send it: a 4-byte
 * header for the redundant block, a 1-byte header for the primary one, the previous 80-byte frame
 * again and the current one. Every SFU forwards it as opaque bytes, so a bench models RED by its
 * size alone.
 */
export const RED_PAYLOAD_BYTES = 4 + 1 + 2 * BENCH_PAYLOAD_BYTES;
export const PACKETS_PER_SECOND = 50;

/** Microseconds on the machine-wide monotonic clock. */
export const nowUs = (): number => Number(process.hrtime.bigint() / 1000n);

export function benchPayload(index: number, sentAtUs: number, bytes = BENCH_PAYLOAD_BYTES): Buffer {
  const payload = Buffer.alloc(Math.max(bytes, 15), 0x5a);
  payload[0] = OPUS_TOC;
  payload.writeUInt16BE(MAGIC, 1);
  payload.writeUInt32BE(index >>> 0, 3);
  payload.writeDoubleBE(sentAtUs, 7);
  return payload;
}

export function readBenchPayload(payload: Buffer): { index: number; sentAtUs: number } | undefined {
  if (payload.length < 15 || payload.readUInt16BE(1) !== MAGIC) return undefined;
  return { index: payload.readUInt32BE(3), sentAtUs: payload.readDoubleBE(7) };
}

/** Opus DTX during silence: one comfort-noise frame every 400 ms (RFC 7587 §3.1.3). */
export const DTX_INTERVAL_MS = 400;
/** A 3-byte Opus frame (20 ms, SILK narrowband TOC), the size a DTX update has. */
export const DTX_FRAME = Buffer.from([0x08, 0x00, 0x00]);
