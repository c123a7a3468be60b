import { createCipheriv, type Cipher } from 'node:crypto';

/** Packets whose keystream is computed in one AES call. */
const BATCH_PACKETS = 16;
/** Keystream bytes prepared per packet: an Opus voice frame is 40–160 bytes. */
const BATCH_BLOCKS = 12;
const BLOCK = 16;

/**
 * The AES-128 counter-mode keystream of one SRTP stream (RFC 3711 §4.1.1). The counter of block j
 * of packet i is (salt · 2^16) ⊕ (SSRC · 2^64) ⊕ (i · 2^16) + j, so every counter is known in
 * advance; one long-lived ECB cipher turns a batch of them into keystream for the next 16 packets
 * in one call, instead of a new CTR cipher per packet (the most expensive step werift takes).
 */
export class AesCmKeystream {
  private readonly ecb: Cipher;
  /** salt ⊕ SSRC: bytes 0–13 of every counter before the packet index goes in. */
  private readonly prefix = Buffer.alloc(14);
  /**
   * The counters of one batch. Only bytes 8–13 (where the packet index goes) change from batch
   * to batch; the rest is written once here, so a batch costs six byte writes per block.
   */
  private readonly counters = Buffer.alloc(BATCH_PACKETS * BATCH_BLOCKS * BLOCK);
  private batch: Buffer = Buffer.alloc(0);
  /** `batch` as 32-bit words, for `xorInto`; undefined when it does not start 4-byte aligned. */
  private batchWords: Int32Array | undefined;
  private batchStart = -1;

  constructor(sessionKey: Buffer, sessionSalt: Buffer, ssrc: number) {
    this.ecb = createCipheriv('aes-128-ecb', sessionKey, null);
    this.ecb.setAutoPadding(false);
    sessionSalt.copy(this.prefix, 0, 0, 14);
    this.prefix.writeUInt32BE((this.prefix.readUInt32BE(4) ^ ssrc) >>> 0, 4);
    fillCounterTemplate(this.counters, this.prefix, BATCH_PACKETS, BATCH_BLOCKS);
  }

  /** XORs `data[offset, offset + length)` with the keystream of packet `index` (48-bit). */
  apply(index: number, data: Uint8Array, offset: number, length: number): void {
    const blocks = Math.ceil(length / BLOCK);
    let stream: Buffer;
    let words: Int32Array | undefined;
    let at: number;
    if (blocks <= BATCH_BLOCKS) {
      if (
        this.batchStart < 0 ||
        index < this.batchStart ||
        index >= this.batchStart + BATCH_PACKETS
      )
        this.prepare(index);
      stream = this.batch;
      words = this.batchWords;
      at = (index - this.batchStart) * BATCH_BLOCKS * BLOCK;
    } else {
      const counters = Buffer.alloc(blocks * BLOCK);
      fillCounterTemplate(counters, this.prefix, 1, blocks);
      stream = this.keystream(index, 1, blocks, counters);
      at = 0;
    }
    xorInto(data, offset, stream, words, at, length);
  }

  private prepare(start: number): void {
    this.batchStart = start;
    this.batch = this.keystream(start, BATCH_PACKETS, BATCH_BLOCKS, this.counters);
    this.batchWords =
      this.batch.byteOffset % 4 === 0
        ? new Int32Array(this.batch.buffer, this.batch.byteOffset, this.batch.length >>> 2)
        : undefined;
  }

  /** Keystream for `packets` packets from `start` on, from counters laid out by fillCounterTemplate. */
  private keystream(start: number, packets: number, blocks: number, counters: Buffer): Buffer {
    const prefix = this.prefix;
    for (let p = 0; p < packets; p++) {
      const index = start + p;
      const high = Math.floor(index / 0x1_0000_0000) & 0xffff;
      const low = index >>> 0;
      const b8 = prefix[8]! ^ (high >>> 8);
      const b9 = prefix[9]! ^ high;
      const b10 = prefix[10]! ^ (low >>> 24);
      const b11 = prefix[11]! ^ (low >>> 16);
      const b12 = prefix[12]! ^ (low >>> 8);
      const b13 = prefix[13]! ^ low;
      for (let at = p * blocks * BLOCK, end = at + blocks * BLOCK; at < end; at += BLOCK) {
        counters[at + 8] = b8;
        counters[at + 9] = b9;
        counters[at + 10] = b10;
        counters[at + 11] = b11;
        counters[at + 12] = b12;
        counters[at + 13] = b13;
      }
    }
    return this.ecb.update(counters.subarray(0, packets * blocks * BLOCK));
  }
}

/** Lays out counters for `packets` × `blocks`: the prefix in bytes 0–13, the block number in 14–15. */
function fillCounterTemplate(
  counters: Buffer,
  prefix: Buffer,
  packets: number,
  blocks: number,
): void {
  for (let p = 0; p < packets; p++) {
    for (let j = 0; j < blocks; j++) {
      const at = (p * blocks + j) * BLOCK;
      prefix.copy(counters, at);
      counters[at + 14] = j >>> 8;
      counters[at + 15] = j;
    }
  }
}

/** A 32-bit view of a whole ArrayBuffer, kept while the same buffer (a Buffer pool) comes back. */
let viewedBuffer: ArrayBufferLike | undefined;
let viewedWords: Int32Array<ArrayBufferLike> = new Int32Array(0);
function wordsOf(buffer: ArrayBufferLike): Int32Array<ArrayBufferLike> {
  if (buffer !== viewedBuffer) {
    viewedBuffer = buffer;
    viewedWords = new Int32Array(buffer, 0, buffer.byteLength >>> 2);
  }
  return viewedWords;
}

/**
 * `data[offset, offset + length) ^= stream[at, at + length)`, four bytes at a time when the data
 * sits at a 4-byte-aligned address and `streamWords` (the stream as words) is given, byte by byte
 * otherwise. The forwarder's packets come from Node's 8-byte-aligned buffer pool with a 12-byte
 * header in front of the payload, so a RED voice payload (~165 bytes) takes 41 word operations
 * instead of 165 byte ones.
 */
export function xorInto(
  data: Uint8Array,
  offset: number,
  stream: Uint8Array,
  streamWords: Int32Array | undefined,
  at: number,
  length: number,
): void {
  const dataStart = data.byteOffset + offset;
  let done = 0;
  if (streamWords && ((dataStart | at) & 3) === 0) {
    const dataWords = wordsOf(data.buffer);
    const first = dataStart >>> 2;
    const key = at >>> 2;
    const count = length >>> 2;
    for (let i = 0; i < count; i++) dataWords[first + i]! ^= streamWords[key + i]!;
    done = count << 2;
  }
  for (let i = done; i < length; i++) data[offset + i]! ^= stream[at + i]!;
}
