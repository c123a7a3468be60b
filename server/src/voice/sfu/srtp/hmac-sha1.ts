/**
 * HMAC-SHA1 for SRTP authentication tags, with the key's inner and outer pad states computed once.
 * Node's `createHmac` re-derives them (and allocates an OpenSSL context) for every packet, which
 * made it the single largest cost of forwarding; here a tag for a voice packet is three SHA-1
 * compressions and no allocation.
 */
const W = new Int32Array(80);
const INITIAL_STATE = [0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476, 0xc3d2e1f0 | 0];
const BLOCK = 64;

function compress(state: Int32Array, block: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const o = offset + 4 * i;
    W[i] = (block[o]! << 24) | (block[o + 1]! << 16) | (block[o + 2]! << 8) | block[o + 3]!;
  }
  for (let i = 16; i < 80; i++) {
    const x = W[i - 3]! ^ W[i - 8]! ^ W[i - 14]! ^ W[i - 16]!;
    W[i] = (x << 1) | (x >>> 31);
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let t: number;
  for (let i = 0; i < 20; i++) {
    t = (((a << 5) | (a >>> 27)) + ((b & c) | (~b & d)) + e + 0x5a827999 + W[i]!) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  for (let i = 20; i < 40; i++) {
    t = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + 0x6ed9eba1 + W[i]!) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  for (let i = 40; i < 60; i++) {
    t = (((a << 5) | (a >>> 27)) + ((b & c) | (b & d) | (c & d)) + e - 0x70e44324 + W[i]!) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  for (let i = 60; i < 80; i++) {
    t = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e - 0x359d3e2a + W[i]!) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
}

function writeWord(out: Uint8Array, offset: number, word: number): void {
  out[offset] = word >>> 24;
  out[offset + 1] = word >>> 16;
  out[offset + 2] = word >>> 8;
  out[offset + 3] = word;
}

function copyState(to: Int32Array, from: Int32Array): void {
  to[0] = from[0]!;
  to[1] = from[1]!;
  to[2] = from[2]!;
  to[3] = from[3]!;
  to[4] = from[4]!;
}

const state = new Int32Array(5);
const tail = new Uint8Array(2 * BLOCK);
/** The outer hash's only block: the 20-byte inner digest, then padding that never changes. */
const outerBlock = new Uint8Array(BLOCK);
outerBlock[20] = 0x80;
writeWord(outerBlock, BLOCK - 4, (BLOCK + 20) * 8);

export class HmacSha1 {
  private readonly inner = new Int32Array(5);
  private readonly outer = new Int32Array(5);

  constructor(key: Uint8Array) {
    if (key.length > BLOCK)
      throw new Error('HMAC keys longer than a block are not needed for SRTP');
    const pad = new Uint8Array(BLOCK);
    for (const [target, byte] of [
      [this.inner, 0x36],
      [this.outer, 0x5c],
    ] as const) {
      pad.fill(byte);
      for (let i = 0; i < key.length; i++) pad[i] = key[i]! ^ byte;
      target.set(INITIAL_STATE);
      compress(target, pad, 0);
    }
  }

  /**
   * Signs `data[0, length)` followed by the 32-bit big-endian `suffix` (SRTP's rollover counter)
   * and writes the first `tagLength` bytes of the MAC to `out` at `outOffset`.
   */
  sign(
    data: Uint8Array,
    length: number,
    suffix: number,
    out: Uint8Array,
    outOffset: number,
    tagLength: number,
  ): void {
    this.mac(data, length, suffix, out, outOffset, tagLength);
  }

  /** The whole 20-byte MAC of `data[0, length)` (STUN's MESSAGE-INTEGRITY), written to `out` at `outOffset`. */
  digest(data: Uint8Array, length: number, out: Uint8Array, outOffset: number): void {
    this.mac(data, length, undefined, out, outOffset, 20);
  }

  private mac(
    data: Uint8Array,
    length: number,
    suffix: number | undefined,
    out: Uint8Array,
    outOffset: number,
    tagLength: number,
  ): void {
    const suffixBytes = suffix === undefined ? 0 : 4;
    // Element by element: `TypedArray.prototype.set` and `subarray` cost more than these few
    // bytes, and this runs once per forwarded packet.
    copyState(state, this.inner);
    const whole = length - (length % BLOCK);
    for (let offset = 0; offset < whole; offset += BLOCK) compress(state, data, offset);
    const rest = length - whole;
    for (let i = 0; i < rest; i++) tail[i] = data[whole + i]!;
    if (suffix !== undefined) writeWord(tail, rest, suffix);
    const used = rest + suffixBytes;
    tail[used] = 0x80;
    const blocks = used + 9 <= BLOCK ? 1 : 2;
    const end = blocks * BLOCK;
    for (let i = used + 1; i < end - 4; i++) tail[i] = 0;
    writeWord(tail, end - 4, (BLOCK + length + suffixBytes) * 8);
    compress(state, tail, 0);
    if (blocks === 2) compress(state, tail, BLOCK);

    for (let i = 0; i < 5; i++) writeWord(outerBlock, i * 4, state[i]!);
    copyState(state, this.outer);
    compress(state, outerBlock, 0);
    for (let i = 0; i < tagLength; i++) out[outOffset + i] = state[i >> 2]! >>> (24 - 8 * (i & 3));
  }
}
