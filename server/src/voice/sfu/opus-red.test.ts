import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RedEncoder, parseRed, redPrimaryOnly } from './opus-red.js';

const frame = (bytes = 60) => randomBytes(bytes);

describe('RedEncoder (Opus RED towards listeners)', () => {
  it('repeats the two frames before each one, oldest first, with their timestamp offsets', () => {
    const encoder = new RedEncoder(2, 1000);
    const frames = [frame(), frame(), frame(), frame()];
    const reds = frames.map((f, i) =>
      encoder.encode((65_534 + i) & 0xffff, (4_294_966_000 + 960 * i) >>> 0, f),
    );
    // The first packet has nothing to repeat; the second one frame; later ones two.
    expect(parseRed(reds[0]!)!.map((b) => b.payload)).toEqual([frames[0]]);
    expect(parseRed(reds[1]!)!.map((b) => b.payload)).toEqual([frames[0], frames[1]]);
    // Sequence numbers and timestamps wrap between these packets.
    const last = parseRed(reds[3]!)!;
    expect(last.map((b) => b.payload)).toEqual([frames[1], frames[2], frames[3]]);
    expect(last.map((b) => b.timestampOffset)).toEqual([1920, 960, 0]);
    expect(last.every((b) => b.payloadType === 111)).toBe(true);
  });

  it('never repeats across a gap: a frame the server never had is not invented', () => {
    const encoder = new RedEncoder(2, 1000);
    const [a, c] = [frame(), frame()];
    encoder.encode(10, 9600, a);
    const red = encoder.encode(12, 11_520, c); // 11 was lost on the way in
    expect(parseRed(red)!.map((b) => b.payload)).toEqual([c]);
  });

  it('repeats nothing from before a pause: the first words after DTX silence ride alone', () => {
    const encoder = new RedEncoder(2, 1000);
    const [noise1, noise2, word, next] = [frame(3), frame(3), frame(), frame()];
    // DTX: one comfort-noise frame every 400 ms of silence, with consecutive sequence numbers.
    encoder.encode(20, 0, noise1);
    encoder.encode(21, 19_200, noise2);
    // Speech 300 ms later: 14,400 ticks fit RFC 2198's offset, but the listener's jitter buffer
    // would take the repeated noise for a packet 300 ms late.
    const first = encoder.encode(22, 19_200 + 14_400, word);
    expect(parseRed(first)!.map((b) => b.payload)).toEqual([word]);
    // The next frame of speech carries the word before it again.
    const second = parseRed(encoder.encode(23, 19_200 + 14_400 + 960, next))!;
    expect(second.map((b) => b.payload)).toEqual([word, next]);
    expect(second.map((b) => b.timestampOffset)).toEqual([960, 0]);
  });

  it('leaves out the oldest redundant frames that would pass the byte budget', () => {
    const encoder = new RedEncoder(2, 200);
    const frames = [frame(120), frame(50), frame(50)];
    frames.forEach((f, i) => encoder.encode(i, 960 * i, f));
    const next = frame(50);
    // Primary 1 + 50, frame 2 adds 4 + 50 (105 fits), frame 1 would add 4 + 50 (159 fits)...
    expect(parseRed(encoder.encode(3, 2880, next))!.map((b) => b.payload)).toEqual([
      frames[1],
      frames[2],
      next,
    ]);
    // ...but a 120-byte frame would not (1 + 50 + 54 + 124 = 229 > 200): only the newer one goes.
    const big = new RedEncoder(2, 200);
    big.encode(0, 0, frame(120));
    big.encode(1, 960, frames[1]!);
    expect(parseRed(big.encode(2, 1920, next))!.map((b) => b.payload)).toEqual([frames[1], next]);
  });

  it('always repeats the frame just before, even past the budget', () => {
    const encoder = new RedEncoder(2, 60);
    const frames = [frame(100), frame(100), frame(100)];
    const reds = frames.map((f, i) => encoder.encode(i, 960 * i, f));
    expect(parseRed(reds[2]!)!.map((b) => b.payload)).toEqual([frames[1], frames[2]]);
  });

  it('wraps a lone frame as RED with no redundancy', () => {
    const f = frame(3);
    expect(parseRed(redPrimaryOnly(f))).toEqual([
      { payloadType: 111, timestampOffset: 0, payload: f },
    ]);
  });

  it('refuses a RED payload whose block lengths run past its end', () => {
    expect(parseRed(Buffer.from([0x80 | 111, 0, 0x0f, 0xff, 111, 1, 2]))).toBeUndefined();
    expect(parseRed(Buffer.alloc(0))).toBeUndefined();
  });
});
