/**
 * Opus RED (RFC 2198) towards listeners: each packet also carries the talker's previous frames, so
 * a listener who loses one packet (or two in a row) still plays every frame. Built here, once per
 * talker packet, from the plain Opus the publisher track delivers (werift already unpacks a
 * browser's own RED and fills upstream gaps from it), so listeners get redundancy whatever the
 * talker's browser sent, and the recorder, the speaking detector and plain-Opus listeners keep
 * seeing one Opus frame per packet.
 */

/** The payload types the server offers (the browser answers with the server's numbers). */
export const OPUS_PAYLOAD_TYPE = 111;
export const RED_PAYLOAD_TYPE = 63;

/** Earlier frames each packet repeats when they fit (see `RED_BYTE_BUDGET`). */
export const RED_DISTANCE = 2;
/**
 * Most bytes of one RED payload with two earlier frames: the frame just before is always repeated,
 * the one before that only within this budget. Speech at the offered 20 kbit/s (~50-byte frames)
 * then carries one earlier frame, quieter frames two, and a listener's stream stays under
 * 64 kbit/s on the wire (decision 041).
 */
export const RED_BYTE_BUDGET = 130;

/**
 * The oldest a redundant frame may be against the frame it rides with: 60 ms of 48 kHz ticks (the
 * two frames before, with room for one frame of odd spacing). RFC 2198 allows 14 bits (341 ms),
 * but an older frame is from before a pause: with DTX the talker sends a frame every 400 ms of
 * silence, so the first packet of speech would repeat comfort noise that recovers nothing, and
 * Chrome's jitter buffer counts each RED block as a packet arriving that late (with FEC delay
 * adaptation, `neteq_impl.cc`), raising its delay before the first words. Measured (`npm run bench
 * networks`, tone bursts after 300 ms pauses, one run each): mouth-to-ear p50 at 10 % / 20 % loss /
 * bursts 126 / 145 / 176 ms with this limit, against 190 / 190 / 191 ms without (LiveKit in the same
 * runs 107–130 ms), concealment as low (0.19 / 0.92 / 1.67 % against 0.49 / 0.10 / 2.51 %).
 */
export const MAX_REDUNDANT_AGE_TICKS = 2880;
/** RFC 2198 limit: a 10-bit block length. */
const MAX_BLOCK = 0x3ff;
const HISTORY = 4;

interface Frame {
  sequenceNumber: number;
  timestamp: number;
  payload: Buffer;
}

/** One talker's recent frames and the RED payload of each new one. */
export class RedEncoder {
  private readonly frames: (Frame | undefined)[] = new Array<Frame | undefined>(HISTORY);

  constructor(
    private readonly distance = RED_DISTANCE,
    private readonly budget = RED_BYTE_BUDGET,
  ) {}

  /**
   * The RED payload for this frame: up to `distance` earlier frames (those received, consecutive
   * by sequence number, at most MAX_REDUNDANT_AGE_TICKS older; all but the latest within the
   * budget), then the frame itself.
   */
  encode(sequenceNumber: number, timestamp: number, payload: Buffer): Buffer {
    const redundant: Frame[] = [];
    let size = 1 + payload.length;
    for (let back = 1; back <= this.distance; back++) {
      const frame = this.frames[(sequenceNumber - back) & (HISTORY - 1)];
      if (!frame || frame.sequenceNumber !== ((sequenceNumber - back) & 0xffff)) break;
      const offset = (timestamp - frame.timestamp) >>> 0;
      if (offset === 0 || offset > MAX_REDUNDANT_AGE_TICKS || frame.payload.length > MAX_BLOCK)
        break;
      // The frame just before always goes (a single loss is the common one); older ones only
      // within the budget.
      if (back > 1 && size + 4 + frame.payload.length > this.budget) break;
      size += 4 + frame.payload.length;
      redundant.unshift(frame);
    }
    this.frames[sequenceNumber & (HISTORY - 1)] = { sequenceNumber, timestamp, payload };

    const out = Buffer.allocUnsafe(size);
    let at = 0;
    for (const frame of redundant) {
      const offset = (timestamp - frame.timestamp) >>> 0;
      const length = frame.payload.length;
      out[at] = 0x80 | OPUS_PAYLOAD_TYPE;
      out[at + 1] = offset >>> 6;
      out[at + 2] = ((offset & 0x3f) << 2) | (length >>> 8);
      out[at + 3] = length & 0xff;
      at += 4;
    }
    out[at++] = OPUS_PAYLOAD_TYPE;
    for (const frame of redundant) {
      frame.payload.copy(out, at);
      at += frame.payload.length;
    }
    payload.copy(out, at);
    return out;
  }
}

/** A RED payload with no redundancy: one Opus frame for a listener that negotiated RED. */
export function redPrimaryOnly(payload: Buffer): Buffer {
  const out = Buffer.allocUnsafe(1 + payload.length);
  out[0] = OPUS_PAYLOAD_TYPE;
  payload.copy(out, 1);
  return out;
}

export interface RedBlock {
  payloadType: number;
  timestampOffset: number;
  payload: Buffer;
}

/** Splits a RED payload into its blocks, oldest first (the last is the primary); undefined if malformed. */
export function parseRed(red: Buffer): RedBlock[] | undefined {
  const headers: { payloadType: number; timestampOffset: number; length: number }[] = [];
  let at = 0;
  for (;;) {
    if (at >= red.length) return undefined;
    const first = red[at]!;
    if ((first & 0x80) === 0) {
      headers.push({ payloadType: first & 0x7f, timestampOffset: 0, length: -1 });
      at += 1;
      break;
    }
    if (at + 4 > red.length) return undefined;
    headers.push({
      payloadType: first & 0x7f,
      timestampOffset: (red[at + 1]! << 6) | (red[at + 2]! >>> 2),
      length: ((red[at + 2]! & 0x03) << 8) | red[at + 3]!,
    });
    at += 4;
  }
  const blocks: RedBlock[] = [];
  for (const header of headers) {
    const length = header.length < 0 ? red.length - at : header.length;
    if (length < 0 || at + length > red.length) return undefined;
    blocks.push({
      payloadType: header.payloadType,
      timestampOffset: header.timestampOffset,
      payload: red.subarray(at, at + length),
    });
    at += length;
  }
  return blocks;
}
