/** Running totals of the SFU's media path, read by `/metrics`. */
export interface SfuTotals {
  /** RTP packets received from publishers. */
  packetsReceived: number;
  /** Publisher packets that never arrived (gaps in their sequence numbers). */
  packetsLost: number;
  /** Packets sent on to listeners (one per listener per forwarded packet). */
  packetsForwarded: number;
  /** Forwarded packets the SFU encrypted and sent itself on the nominated UDP socket. */
  fastPathPackets: number;
  /**
   * Forwarded packets handed to werift instead: its own sender (DTLS-SRTP keys not readable,
   * AES-GCM) or its ICE connection (TCP and TURN pairs). A werift upgrade that moved the internals
   * the fast path reads shows here.
   */
  slowPathPackets: number;
  /** Consent checks answered by the addon's receive thread, without waking the event loop. */
  consentAnswersOffLoop: number;
}

/** How a forwarded packet left: the SFU's own SRTP and UDP send, or through werift. */
export type SendPath = 'fast' | 'slow';

/** A jump this large is a new stream (or a reordering), not loss. */
const MAX_GAP = 1000;

/**
 * Counts what flows through the SFU. Loss is measured on the way in, per publisher, from RTP
 * sequence numbers (16-bit, wrapping): what a publisher's network dropped before the SFU.
 */
export class SfuCounters {
  readonly totals: SfuTotals = {
    packetsReceived: 0,
    packetsLost: 0,
    packetsForwarded: 0,
    fastPathPackets: 0,
    slowPathPackets: 0,
    consentAnswersOffLoop: 0,
  };
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

  /** One packet left for a listener by `path` (nothing when it was not sent at all). */
  sent(path: SendPath | undefined): void {
    if (path === 'fast') this.totals.fastPathPackets++;
    else if (path === 'slow') this.totals.slowPathPackets++;
  }
}
