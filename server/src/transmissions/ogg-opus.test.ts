import { describe, expect, it } from 'vitest';
import { OPUS_PRE_SKIP, oggCrc, oggOpusFile, opusPacketSamples } from './ogg-opus.js';

interface Page {
  flags: number;
  granule: bigint;
  sequence: number;
  packets: Buffer[];
}

/** A reader written from RFC 3533, independent of the writer: pages, CRC, lacing. */
function readPages(file: Buffer): Page[] {
  const pages: Page[] = [];
  let offset = 0;
  let pending: Buffer[] = [];
  while (offset < file.length) {
    expect(file.toString('latin1', offset, offset + 4)).toBe('OggS');
    const segments = file[offset + 26]!;
    const lacing = [...file.subarray(offset + 27, offset + 27 + segments)];
    const bodyLength = lacing.reduce((a, b) => a + b, 0);
    const length = 27 + segments + bodyLength;
    const raw = Buffer.from(file.subarray(offset, offset + length));
    const crc = raw.readUInt32LE(22);
    raw.writeUInt32LE(0, 22);
    expect(oggCrc(raw)).toBe(crc);
    const packets: Buffer[] = [];
    let at = offset + 27 + segments;
    for (const value of lacing) {
      pending.push(file.subarray(at, at + value));
      at += value;
      if (value < 255) {
        packets.push(Buffer.concat(pending));
        pending = [];
      }
    }
    pages.push({
      flags: file[offset + 5]!,
      granule: file.readBigInt64LE(offset + 6),
      sequence: file.readUInt32LE(offset + 18),
      packets,
    });
    offset += length;
  }
  return pages;
}

describe('Ogg Opus', () => {
  it('computes the Ogg CRC (CRC-32, polynomial 04c11db7, init 0, no final xor)', () => {
    expect(oggCrc(Buffer.from('123456789'))).toBe(0x89a1897f);
  });

  it('reads packet durations from the TOC byte', () => {
    expect(opusPacketSamples(Buffer.from([0xf8, 0xff, 0xfe]))).toBe(960); // CELT 20 ms
    expect(opusPacketSamples(Buffer.from([0x78, 1]))).toBe(960); // hybrid FB 20 ms (config 15)
    expect(opusPacketSamples(Buffer.from([0x08]))).toBe(960); // SILK NB 20 ms
    expect(opusPacketSamples(Buffer.from([0x09]))).toBe(1920); // two frames of 20 ms
    expect(opusPacketSamples(Buffer.from([0x0b, 0x03]))).toBe(2880); // code 3, three frames
    expect(opusPacketSamples(Buffer.from([0x1b, 0x3f]))).toBe(0); // 63 × 60 ms: malformed
    expect(opusPacketSamples(Buffer.alloc(0))).toBe(0);
  });

  it('writes head, tags and audio pages that give back every packet, with granule positions', () => {
    const packets = Array.from({ length: 120 }, (_, i) =>
      Buffer.concat([Buffer.from([0xf8]), Buffer.alloc(i === 7 ? 600 : 40 + (i % 30), i)]),
    );
    const file = oggOpusFile(packets, { serial: 1234, stereo: false });
    const pages = readPages(file);
    expect(pages[0]!.flags).toBe(0x02);
    const head = pages[0]!.packets[0]!;
    expect(head.toString('latin1', 0, 8)).toBe('OpusHead');
    expect(head[9]).toBe(1);
    expect(head.readUInt16LE(10)).toBe(OPUS_PRE_SKIP);
    expect(head.readUInt32LE(12)).toBe(48_000);
    expect(pages[1]!.packets[0]!.toString('latin1', 0, 8)).toBe('OpusTags');
    expect(pages.map((p) => p.sequence)).toEqual(pages.map((_, i) => i));
    const audio = pages.slice(2);
    expect(audio.at(-1)!.flags).toBe(0x04);
    expect(audio.flatMap((p) => p.packets)).toEqual(packets);
    expect(audio.at(-1)!.granule).toBe(BigInt(OPUS_PRE_SKIP + 120 * 960));
    // Granules grow page by page with the packets each page completes.
    let samples = OPUS_PRE_SKIP;
    for (const p of audio) {
      samples += p.packets.length * 960;
      expect(p.granule).toBe(BigInt(samples));
    }
  });
});
