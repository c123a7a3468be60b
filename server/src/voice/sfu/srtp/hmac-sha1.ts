/**
 * HMAC-SHA1 for SRTP authentication tags, with the key's inner and outer pad states computed once.
 * Node's `createHmac` re-derives them (and allocates an OpenSSL context) for every packet, which
 * made it the single largest cost of forwarding; here a tag for a voice packet is three or four
 * SHA-1 compressions and no allocation.
 */
const INITIAL_STATE = [0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476, 0xc3d2e1f0 | 0];
const BLOCK = 64;

/**
 * One SHA-1 compression (FIPS 180-4 §6.1.2), fully unrolled: the 16-word message schedule lives in
 * local variables (w0–w15, each overwritten by its expansion from round 16 on) and the five working
 * variables are renamed from round to round instead of shifted. A loop over an 80-word array with
 * shifted variables took ~40 % longer per SRTP tag. This is the forwarder's hottest function, run
 * four times per RED-sized packet and listener.
 */
function compress(state: Int32Array, block: Uint8Array, offset: number): void {
  let w0 = readWord(block, offset);
  let w1 = readWord(block, offset + 4);
  let w2 = readWord(block, offset + 8);
  let w3 = readWord(block, offset + 12);
  let w4 = readWord(block, offset + 16);
  let w5 = readWord(block, offset + 20);
  let w6 = readWord(block, offset + 24);
  let w7 = readWord(block, offset + 28);
  let w8 = readWord(block, offset + 32);
  let w9 = readWord(block, offset + 36);
  let w10 = readWord(block, offset + 40);
  let w11 = readWord(block, offset + 44);
  let w12 = readWord(block, offset + 48);
  let w13 = readWord(block, offset + 52);
  let w14 = readWord(block, offset + 56);
  let w15 = readWord(block, offset + 60);
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let x: number;
  e = (((a << 5) | (a >>> 27)) + ((b & c) | (~b & d)) + e + 0x5a827999 + w0) | 0;
  b = (b << 30) | (b >>> 2);
  d = (((e << 5) | (e >>> 27)) + ((a & b) | (~a & c)) + d + 0x5a827999 + w1) | 0;
  a = (a << 30) | (a >>> 2);
  c = (((d << 5) | (d >>> 27)) + ((e & a) | (~e & b)) + c + 0x5a827999 + w2) | 0;
  e = (e << 30) | (e >>> 2);
  b = (((c << 5) | (c >>> 27)) + ((d & e) | (~d & a)) + b + 0x5a827999 + w3) | 0;
  d = (d << 30) | (d >>> 2);
  a = (((b << 5) | (b >>> 27)) + ((c & d) | (~c & e)) + a + 0x5a827999 + w4) | 0;
  c = (c << 30) | (c >>> 2);
  e = (((a << 5) | (a >>> 27)) + ((b & c) | (~b & d)) + e + 0x5a827999 + w5) | 0;
  b = (b << 30) | (b >>> 2);
  d = (((e << 5) | (e >>> 27)) + ((a & b) | (~a & c)) + d + 0x5a827999 + w6) | 0;
  a = (a << 30) | (a >>> 2);
  c = (((d << 5) | (d >>> 27)) + ((e & a) | (~e & b)) + c + 0x5a827999 + w7) | 0;
  e = (e << 30) | (e >>> 2);
  b = (((c << 5) | (c >>> 27)) + ((d & e) | (~d & a)) + b + 0x5a827999 + w8) | 0;
  d = (d << 30) | (d >>> 2);
  a = (((b << 5) | (b >>> 27)) + ((c & d) | (~c & e)) + a + 0x5a827999 + w9) | 0;
  c = (c << 30) | (c >>> 2);
  e = (((a << 5) | (a >>> 27)) + ((b & c) | (~b & d)) + e + 0x5a827999 + w10) | 0;
  b = (b << 30) | (b >>> 2);
  d = (((e << 5) | (e >>> 27)) + ((a & b) | (~a & c)) + d + 0x5a827999 + w11) | 0;
  a = (a << 30) | (a >>> 2);
  c = (((d << 5) | (d >>> 27)) + ((e & a) | (~e & b)) + c + 0x5a827999 + w12) | 0;
  e = (e << 30) | (e >>> 2);
  b = (((c << 5) | (c >>> 27)) + ((d & e) | (~d & a)) + b + 0x5a827999 + w13) | 0;
  d = (d << 30) | (d >>> 2);
  a = (((b << 5) | (b >>> 27)) + ((c & d) | (~c & e)) + a + 0x5a827999 + w14) | 0;
  c = (c << 30) | (c >>> 2);
  e = (((a << 5) | (a >>> 27)) + ((b & c) | (~b & d)) + e + 0x5a827999 + w15) | 0;
  b = (b << 30) | (b >>> 2);
  x = w13 ^ w8 ^ w2 ^ w0;
  w0 = (x << 1) | (x >>> 31);
  d = (((e << 5) | (e >>> 27)) + ((a & b) | (~a & c)) + d + 0x5a827999 + w0) | 0;
  a = (a << 30) | (a >>> 2);
  x = w14 ^ w9 ^ w3 ^ w1;
  w1 = (x << 1) | (x >>> 31);
  c = (((d << 5) | (d >>> 27)) + ((e & a) | (~e & b)) + c + 0x5a827999 + w1) | 0;
  e = (e << 30) | (e >>> 2);
  x = w15 ^ w10 ^ w4 ^ w2;
  w2 = (x << 1) | (x >>> 31);
  b = (((c << 5) | (c >>> 27)) + ((d & e) | (~d & a)) + b + 0x5a827999 + w2) | 0;
  d = (d << 30) | (d >>> 2);
  x = w0 ^ w11 ^ w5 ^ w3;
  w3 = (x << 1) | (x >>> 31);
  a = (((b << 5) | (b >>> 27)) + ((c & d) | (~c & e)) + a + 0x5a827999 + w3) | 0;
  c = (c << 30) | (c >>> 2);
  x = w1 ^ w12 ^ w6 ^ w4;
  w4 = (x << 1) | (x >>> 31);
  e = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + 0x6ed9eba1 + w4) | 0;
  b = (b << 30) | (b >>> 2);
  x = w2 ^ w13 ^ w7 ^ w5;
  w5 = (x << 1) | (x >>> 31);
  d = (((e << 5) | (e >>> 27)) + (a ^ b ^ c) + d + 0x6ed9eba1 + w5) | 0;
  a = (a << 30) | (a >>> 2);
  x = w3 ^ w14 ^ w8 ^ w6;
  w6 = (x << 1) | (x >>> 31);
  c = (((d << 5) | (d >>> 27)) + (e ^ a ^ b) + c + 0x6ed9eba1 + w6) | 0;
  e = (e << 30) | (e >>> 2);
  x = w4 ^ w15 ^ w9 ^ w7;
  w7 = (x << 1) | (x >>> 31);
  b = (((c << 5) | (c >>> 27)) + (d ^ e ^ a) + b + 0x6ed9eba1 + w7) | 0;
  d = (d << 30) | (d >>> 2);
  x = w5 ^ w0 ^ w10 ^ w8;
  w8 = (x << 1) | (x >>> 31);
  a = (((b << 5) | (b >>> 27)) + (c ^ d ^ e) + a + 0x6ed9eba1 + w8) | 0;
  c = (c << 30) | (c >>> 2);
  x = w6 ^ w1 ^ w11 ^ w9;
  w9 = (x << 1) | (x >>> 31);
  e = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + 0x6ed9eba1 + w9) | 0;
  b = (b << 30) | (b >>> 2);
  x = w7 ^ w2 ^ w12 ^ w10;
  w10 = (x << 1) | (x >>> 31);
  d = (((e << 5) | (e >>> 27)) + (a ^ b ^ c) + d + 0x6ed9eba1 + w10) | 0;
  a = (a << 30) | (a >>> 2);
  x = w8 ^ w3 ^ w13 ^ w11;
  w11 = (x << 1) | (x >>> 31);
  c = (((d << 5) | (d >>> 27)) + (e ^ a ^ b) + c + 0x6ed9eba1 + w11) | 0;
  e = (e << 30) | (e >>> 2);
  x = w9 ^ w4 ^ w14 ^ w12;
  w12 = (x << 1) | (x >>> 31);
  b = (((c << 5) | (c >>> 27)) + (d ^ e ^ a) + b + 0x6ed9eba1 + w12) | 0;
  d = (d << 30) | (d >>> 2);
  x = w10 ^ w5 ^ w15 ^ w13;
  w13 = (x << 1) | (x >>> 31);
  a = (((b << 5) | (b >>> 27)) + (c ^ d ^ e) + a + 0x6ed9eba1 + w13) | 0;
  c = (c << 30) | (c >>> 2);
  x = w11 ^ w6 ^ w0 ^ w14;
  w14 = (x << 1) | (x >>> 31);
  e = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + 0x6ed9eba1 + w14) | 0;
  b = (b << 30) | (b >>> 2);
  x = w12 ^ w7 ^ w1 ^ w15;
  w15 = (x << 1) | (x >>> 31);
  d = (((e << 5) | (e >>> 27)) + (a ^ b ^ c) + d + 0x6ed9eba1 + w15) | 0;
  a = (a << 30) | (a >>> 2);
  x = w13 ^ w8 ^ w2 ^ w0;
  w0 = (x << 1) | (x >>> 31);
  c = (((d << 5) | (d >>> 27)) + (e ^ a ^ b) + c + 0x6ed9eba1 + w0) | 0;
  e = (e << 30) | (e >>> 2);
  x = w14 ^ w9 ^ w3 ^ w1;
  w1 = (x << 1) | (x >>> 31);
  b = (((c << 5) | (c >>> 27)) + (d ^ e ^ a) + b + 0x6ed9eba1 + w1) | 0;
  d = (d << 30) | (d >>> 2);
  x = w15 ^ w10 ^ w4 ^ w2;
  w2 = (x << 1) | (x >>> 31);
  a = (((b << 5) | (b >>> 27)) + (c ^ d ^ e) + a + 0x6ed9eba1 + w2) | 0;
  c = (c << 30) | (c >>> 2);
  x = w0 ^ w11 ^ w5 ^ w3;
  w3 = (x << 1) | (x >>> 31);
  e = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + 0x6ed9eba1 + w3) | 0;
  b = (b << 30) | (b >>> 2);
  x = w1 ^ w12 ^ w6 ^ w4;
  w4 = (x << 1) | (x >>> 31);
  d = (((e << 5) | (e >>> 27)) + (a ^ b ^ c) + d + 0x6ed9eba1 + w4) | 0;
  a = (a << 30) | (a >>> 2);
  x = w2 ^ w13 ^ w7 ^ w5;
  w5 = (x << 1) | (x >>> 31);
  c = (((d << 5) | (d >>> 27)) + (e ^ a ^ b) + c + 0x6ed9eba1 + w5) | 0;
  e = (e << 30) | (e >>> 2);
  x = w3 ^ w14 ^ w8 ^ w6;
  w6 = (x << 1) | (x >>> 31);
  b = (((c << 5) | (c >>> 27)) + (d ^ e ^ a) + b + 0x6ed9eba1 + w6) | 0;
  d = (d << 30) | (d >>> 2);
  x = w4 ^ w15 ^ w9 ^ w7;
  w7 = (x << 1) | (x >>> 31);
  a = (((b << 5) | (b >>> 27)) + (c ^ d ^ e) + a + 0x6ed9eba1 + w7) | 0;
  c = (c << 30) | (c >>> 2);
  x = w5 ^ w0 ^ w10 ^ w8;
  w8 = (x << 1) | (x >>> 31);
  e = (((a << 5) | (a >>> 27)) + ((b & c) | (b & d) | (c & d)) + e + -0x70e44324 + w8) | 0;
  b = (b << 30) | (b >>> 2);
  x = w6 ^ w1 ^ w11 ^ w9;
  w9 = (x << 1) | (x >>> 31);
  d = (((e << 5) | (e >>> 27)) + ((a & b) | (a & c) | (b & c)) + d + -0x70e44324 + w9) | 0;
  a = (a << 30) | (a >>> 2);
  x = w7 ^ w2 ^ w12 ^ w10;
  w10 = (x << 1) | (x >>> 31);
  c = (((d << 5) | (d >>> 27)) + ((e & a) | (e & b) | (a & b)) + c + -0x70e44324 + w10) | 0;
  e = (e << 30) | (e >>> 2);
  x = w8 ^ w3 ^ w13 ^ w11;
  w11 = (x << 1) | (x >>> 31);
  b = (((c << 5) | (c >>> 27)) + ((d & e) | (d & a) | (e & a)) + b + -0x70e44324 + w11) | 0;
  d = (d << 30) | (d >>> 2);
  x = w9 ^ w4 ^ w14 ^ w12;
  w12 = (x << 1) | (x >>> 31);
  a = (((b << 5) | (b >>> 27)) + ((c & d) | (c & e) | (d & e)) + a + -0x70e44324 + w12) | 0;
  c = (c << 30) | (c >>> 2);
  x = w10 ^ w5 ^ w15 ^ w13;
  w13 = (x << 1) | (x >>> 31);
  e = (((a << 5) | (a >>> 27)) + ((b & c) | (b & d) | (c & d)) + e + -0x70e44324 + w13) | 0;
  b = (b << 30) | (b >>> 2);
  x = w11 ^ w6 ^ w0 ^ w14;
  w14 = (x << 1) | (x >>> 31);
  d = (((e << 5) | (e >>> 27)) + ((a & b) | (a & c) | (b & c)) + d + -0x70e44324 + w14) | 0;
  a = (a << 30) | (a >>> 2);
  x = w12 ^ w7 ^ w1 ^ w15;
  w15 = (x << 1) | (x >>> 31);
  c = (((d << 5) | (d >>> 27)) + ((e & a) | (e & b) | (a & b)) + c + -0x70e44324 + w15) | 0;
  e = (e << 30) | (e >>> 2);
  x = w13 ^ w8 ^ w2 ^ w0;
  w0 = (x << 1) | (x >>> 31);
  b = (((c << 5) | (c >>> 27)) + ((d & e) | (d & a) | (e & a)) + b + -0x70e44324 + w0) | 0;
  d = (d << 30) | (d >>> 2);
  x = w14 ^ w9 ^ w3 ^ w1;
  w1 = (x << 1) | (x >>> 31);
  a = (((b << 5) | (b >>> 27)) + ((c & d) | (c & e) | (d & e)) + a + -0x70e44324 + w1) | 0;
  c = (c << 30) | (c >>> 2);
  x = w15 ^ w10 ^ w4 ^ w2;
  w2 = (x << 1) | (x >>> 31);
  e = (((a << 5) | (a >>> 27)) + ((b & c) | (b & d) | (c & d)) + e + -0x70e44324 + w2) | 0;
  b = (b << 30) | (b >>> 2);
  x = w0 ^ w11 ^ w5 ^ w3;
  w3 = (x << 1) | (x >>> 31);
  d = (((e << 5) | (e >>> 27)) + ((a & b) | (a & c) | (b & c)) + d + -0x70e44324 + w3) | 0;
  a = (a << 30) | (a >>> 2);
  x = w1 ^ w12 ^ w6 ^ w4;
  w4 = (x << 1) | (x >>> 31);
  c = (((d << 5) | (d >>> 27)) + ((e & a) | (e & b) | (a & b)) + c + -0x70e44324 + w4) | 0;
  e = (e << 30) | (e >>> 2);
  x = w2 ^ w13 ^ w7 ^ w5;
  w5 = (x << 1) | (x >>> 31);
  b = (((c << 5) | (c >>> 27)) + ((d & e) | (d & a) | (e & a)) + b + -0x70e44324 + w5) | 0;
  d = (d << 30) | (d >>> 2);
  x = w3 ^ w14 ^ w8 ^ w6;
  w6 = (x << 1) | (x >>> 31);
  a = (((b << 5) | (b >>> 27)) + ((c & d) | (c & e) | (d & e)) + a + -0x70e44324 + w6) | 0;
  c = (c << 30) | (c >>> 2);
  x = w4 ^ w15 ^ w9 ^ w7;
  w7 = (x << 1) | (x >>> 31);
  e = (((a << 5) | (a >>> 27)) + ((b & c) | (b & d) | (c & d)) + e + -0x70e44324 + w7) | 0;
  b = (b << 30) | (b >>> 2);
  x = w5 ^ w0 ^ w10 ^ w8;
  w8 = (x << 1) | (x >>> 31);
  d = (((e << 5) | (e >>> 27)) + ((a & b) | (a & c) | (b & c)) + d + -0x70e44324 + w8) | 0;
  a = (a << 30) | (a >>> 2);
  x = w6 ^ w1 ^ w11 ^ w9;
  w9 = (x << 1) | (x >>> 31);
  c = (((d << 5) | (d >>> 27)) + ((e & a) | (e & b) | (a & b)) + c + -0x70e44324 + w9) | 0;
  e = (e << 30) | (e >>> 2);
  x = w7 ^ w2 ^ w12 ^ w10;
  w10 = (x << 1) | (x >>> 31);
  b = (((c << 5) | (c >>> 27)) + ((d & e) | (d & a) | (e & a)) + b + -0x70e44324 + w10) | 0;
  d = (d << 30) | (d >>> 2);
  x = w8 ^ w3 ^ w13 ^ w11;
  w11 = (x << 1) | (x >>> 31);
  a = (((b << 5) | (b >>> 27)) + ((c & d) | (c & e) | (d & e)) + a + -0x70e44324 + w11) | 0;
  c = (c << 30) | (c >>> 2);
  x = w9 ^ w4 ^ w14 ^ w12;
  w12 = (x << 1) | (x >>> 31);
  e = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + -0x359d3e2a + w12) | 0;
  b = (b << 30) | (b >>> 2);
  x = w10 ^ w5 ^ w15 ^ w13;
  w13 = (x << 1) | (x >>> 31);
  d = (((e << 5) | (e >>> 27)) + (a ^ b ^ c) + d + -0x359d3e2a + w13) | 0;
  a = (a << 30) | (a >>> 2);
  x = w11 ^ w6 ^ w0 ^ w14;
  w14 = (x << 1) | (x >>> 31);
  c = (((d << 5) | (d >>> 27)) + (e ^ a ^ b) + c + -0x359d3e2a + w14) | 0;
  e = (e << 30) | (e >>> 2);
  x = w12 ^ w7 ^ w1 ^ w15;
  w15 = (x << 1) | (x >>> 31);
  b = (((c << 5) | (c >>> 27)) + (d ^ e ^ a) + b + -0x359d3e2a + w15) | 0;
  d = (d << 30) | (d >>> 2);
  x = w13 ^ w8 ^ w2 ^ w0;
  w0 = (x << 1) | (x >>> 31);
  a = (((b << 5) | (b >>> 27)) + (c ^ d ^ e) + a + -0x359d3e2a + w0) | 0;
  c = (c << 30) | (c >>> 2);
  x = w14 ^ w9 ^ w3 ^ w1;
  w1 = (x << 1) | (x >>> 31);
  e = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + -0x359d3e2a + w1) | 0;
  b = (b << 30) | (b >>> 2);
  x = w15 ^ w10 ^ w4 ^ w2;
  w2 = (x << 1) | (x >>> 31);
  d = (((e << 5) | (e >>> 27)) + (a ^ b ^ c) + d + -0x359d3e2a + w2) | 0;
  a = (a << 30) | (a >>> 2);
  x = w0 ^ w11 ^ w5 ^ w3;
  w3 = (x << 1) | (x >>> 31);
  c = (((d << 5) | (d >>> 27)) + (e ^ a ^ b) + c + -0x359d3e2a + w3) | 0;
  e = (e << 30) | (e >>> 2);
  x = w1 ^ w12 ^ w6 ^ w4;
  w4 = (x << 1) | (x >>> 31);
  b = (((c << 5) | (c >>> 27)) + (d ^ e ^ a) + b + -0x359d3e2a + w4) | 0;
  d = (d << 30) | (d >>> 2);
  x = w2 ^ w13 ^ w7 ^ w5;
  w5 = (x << 1) | (x >>> 31);
  a = (((b << 5) | (b >>> 27)) + (c ^ d ^ e) + a + -0x359d3e2a + w5) | 0;
  c = (c << 30) | (c >>> 2);
  x = w3 ^ w14 ^ w8 ^ w6;
  w6 = (x << 1) | (x >>> 31);
  e = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + -0x359d3e2a + w6) | 0;
  b = (b << 30) | (b >>> 2);
  x = w4 ^ w15 ^ w9 ^ w7;
  w7 = (x << 1) | (x >>> 31);
  d = (((e << 5) | (e >>> 27)) + (a ^ b ^ c) + d + -0x359d3e2a + w7) | 0;
  a = (a << 30) | (a >>> 2);
  x = w5 ^ w0 ^ w10 ^ w8;
  w8 = (x << 1) | (x >>> 31);
  c = (((d << 5) | (d >>> 27)) + (e ^ a ^ b) + c + -0x359d3e2a + w8) | 0;
  e = (e << 30) | (e >>> 2);
  x = w6 ^ w1 ^ w11 ^ w9;
  w9 = (x << 1) | (x >>> 31);
  b = (((c << 5) | (c >>> 27)) + (d ^ e ^ a) + b + -0x359d3e2a + w9) | 0;
  d = (d << 30) | (d >>> 2);
  x = w7 ^ w2 ^ w12 ^ w10;
  w10 = (x << 1) | (x >>> 31);
  a = (((b << 5) | (b >>> 27)) + (c ^ d ^ e) + a + -0x359d3e2a + w10) | 0;
  c = (c << 30) | (c >>> 2);
  x = w8 ^ w3 ^ w13 ^ w11;
  w11 = (x << 1) | (x >>> 31);
  e = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + -0x359d3e2a + w11) | 0;
  b = (b << 30) | (b >>> 2);
  x = w9 ^ w4 ^ w14 ^ w12;
  w12 = (x << 1) | (x >>> 31);
  d = (((e << 5) | (e >>> 27)) + (a ^ b ^ c) + d + -0x359d3e2a + w12) | 0;
  a = (a << 30) | (a >>> 2);
  x = w10 ^ w5 ^ w15 ^ w13;
  w13 = (x << 1) | (x >>> 31);
  c = (((d << 5) | (d >>> 27)) + (e ^ a ^ b) + c + -0x359d3e2a + w13) | 0;
  e = (e << 30) | (e >>> 2);
  x = w11 ^ w6 ^ w0 ^ w14;
  w14 = (x << 1) | (x >>> 31);
  b = (((c << 5) | (c >>> 27)) + (d ^ e ^ a) + b + -0x359d3e2a + w14) | 0;
  d = (d << 30) | (d >>> 2);
  x = w12 ^ w7 ^ w1 ^ w15;
  w15 = (x << 1) | (x >>> 31);
  a = (((b << 5) | (b >>> 27)) + (c ^ d ^ e) + a + -0x359d3e2a + w15) | 0;
  c = (c << 30) | (c >>> 2);
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
}

function readWord(data: Uint8Array, offset: number): number {
  return (
    (data[offset]! << 24) | (data[offset + 1]! << 16) | (data[offset + 2]! << 8) | data[offset + 3]!
  );
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
