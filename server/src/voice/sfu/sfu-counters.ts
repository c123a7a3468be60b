/** Running totals of the SFU's media path, read by `/metrics`. */
export interface SfuTotals {
  /** RTP packets received from publishers. */
  packetsReceived: number;
  /** Publisher packets that never arrived (gaps in their sequence numbers). */
  packetsLost: number;
  /** Packets sent on to listeners (one per listener per forwarded packet). */
  packetsForwarded: number;
}

/** A jump this large is a new stream (or a reordering), not loss. */
const MAX_GAP = 1000;

/**
 * Counts what flows through the SFU. Loss is measured on the way in, per publisher, from RTP
 * sequence numbers (16-bit, wrapping): what a publisher's network dropped before the SFU.
 */
export class SfuCounters {
  readonly totals: SfuTotals = { packetsReceived: 0, packetsLost: 0, packetsForwarded: 0 };
  private readonly lastSequence = new WeakMap<object, number>();

  received(publisher: object, sequenceNumber: number): void {
    this.totals.packetsReceived++;
    const last = this.lastSequence.get(publisher);
    const gap = last === undefined ? 1 : (sequenceNumber - last + 0x10000) % 0x10000;
    // A late (reordered) or repeated packet: the newest sequence number stays.
    if (gap === 0 || gap > 0x10000 - MAX_GAP) return;
    this.lastSequence.set(publisher, sequenceNumber);
    if (gap > 1 && gap < MAX_GAP) this.totals.packetsLost += gap - 1;
  }

  forwarded(count: number): void {
    this.totals.packetsForwarded += count;
  }
}
