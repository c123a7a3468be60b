/**
 * Ogg Opus (RFC 7845) from Opus packets as they came off the wire: no decoding, no transcoding.
 * One logical stream: the OpusHead page, the OpusTags page, then audio pages of up to one second.
 */

const SAMPLE_RATE = 48_000;
/** Samples the decoder drops at the start (the encoder's look-ahead), as RFC 7845 recommends. */
export const OPUS_PRE_SKIP = 312;
const PACKETS_PER_PAGE = 50;
const MAX_SEGMENTS = 255;

/** Samples at 48 kHz in one Opus packet, from its TOC byte (RFC 6716 §3.1); 0 if malformed. */
export function opusPacketSamples(packet: Uint8Array): number {
  if (packet.length === 0) return 0;
  const toc = packet[0]!;
  const config = toc >> 3;
  let frameSamples: number;
  if (config < 12) frameSamples = [480, 960, 1920, 2880][config & 3]!;
  else if (config < 16) frameSamples = config & 1 ? 960 : 480;
  else frameSamples = [120, 240, 480, 960][config & 3]!;
  const code = toc & 3;
  let frames: number;
  if (code === 0) frames = 1;
  else if (code !== 3) frames = 2;
  else {
    if (packet.length < 2) return 0;
    frames = packet[1]! & 0x3f;
  }
  const samples = frameSamples * frames;
  // No packet may hold more than 120 ms.
  return samples > 5760 ? 0 : samples;
}

/** Whether the packet codes stereo (the TOC's s bit). */
export function opusPacketIsStereo(packet: Uint8Array): boolean {
  return packet.length > 0 && (packet[0]! & 0x04) !== 0;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let bit = 0; bit < 8; bit++) r = r & 0x8000_0000 ? (r << 1) ^ 0x04c1_1db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** Ogg's CRC-32 (polynomial 0x04c11db7, not reflected, no final xor). */
export function oggCrc(data: Uint8Array): number {
  let crc = 0;
  for (let i = 0; i < data.length; i++)
    crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ data[i]!) & 0xff]!) >>> 0;
  return crc;
}

interface PageOptions {
  serial: number;
  sequence: number;
  granule: bigint;
  flags: number;
}

function page(packets: Uint8Array[], options: PageOptions): Buffer {
  const lacing: number[] = [];
  for (const packet of packets) {
    let left = packet.length;
    while (left >= 255) {
      lacing.push(255);
      left -= 255;
    }
    lacing.push(left);
  }
  const bodyLength = packets.reduce((sum, packet) => sum + packet.length, 0);
  const out = Buffer.alloc(27 + lacing.length + bodyLength);
  out.write('OggS', 0, 'latin1');
  out[4] = 0;
  out[5] = options.flags;
  out.writeBigInt64LE(options.granule, 6);
  out.writeUInt32LE(options.serial >>> 0, 14);
  out.writeUInt32LE(options.sequence >>> 0, 18);
  out[26] = lacing.length;
  Buffer.from(lacing).copy(out, 27);
  let offset = 27 + lacing.length;
  for (const packet of packets) {
    out.set(packet, offset);
    offset += packet.length;
  }
  out.writeUInt32LE(oggCrc(out), 22);
  return out;
}

function segmentsOf(packet: Uint8Array): number {
  return Math.floor(packet.length / 255) + 1;
}

/**
 * The whole file for a stream of Opus packets (each at most 255 × 254 bytes, as real ones are).
 * The granule position of each page is the pre-skip plus the samples of every packet so far.
 */
export function oggOpusFile(
  packets: Uint8Array[],
  options: { serial: number; stereo: boolean; vendor?: string },
): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1;
  head[9] = options.stereo ? 2 : 1;
  head.writeUInt16LE(OPUS_PRE_SKIP, 10);
  head.writeUInt32LE(SAMPLE_RATE, 12);
  head.writeInt16LE(0, 16);
  head[18] = 0;
  const vendor = Buffer.from(options.vendor ?? 'chirp', 'utf8');
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write('OpusTags', 0, 'latin1');
  tags.writeUInt32LE(vendor.length, 8);
  vendor.copy(tags, 12);
  tags.writeUInt32LE(0, 12 + vendor.length);

  const serial = options.serial;
  const pages: Buffer[] = [
    page([head], { serial, sequence: 0, granule: 0n, flags: 0x02 }),
    page([tags], { serial, sequence: 1, granule: 0n, flags: 0 }),
  ];
  let granule = BigInt(OPUS_PRE_SKIP);
  let batch: Uint8Array[] = [];
  let batchSegments = 0;
  const flush = (last: boolean) => {
    pages.push(
      page(batch, { serial, sequence: pages.length, granule, flags: last ? 0x04 : 0 }),
    );
    batch = [];
    batchSegments = 0;
  };
  packets.forEach((packet, i) => {
    const segments = segmentsOf(packet);
    if (batch.length === PACKETS_PER_PAGE || batchSegments + segments > MAX_SEGMENTS) flush(false);
    batch.push(packet);
    batchSegments += segments;
    granule += BigInt(opusPacketSamples(packet));
    if (i === packets.length - 1) flush(true);
  });
  if (packets.length === 0) flush(true);
  return Buffer.concat(pages);
}
