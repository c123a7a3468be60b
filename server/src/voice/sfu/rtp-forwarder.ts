import { randomInt } from 'node:crypto';
import {
  RtpHeader,
  RtpPacket,
  type MediaStreamTrack,
  type RTCDtlsTransport,
  type RTCRtpTransceiver,
} from 'werift';
import { DatagramBatch } from './datagram-batch.js';
import { redPrimaryOnly } from './opus-red.js';
import type { ReportSchedule, SenderReports } from './sender-reports.js';
import type { SendPath } from './sfu-counters.js';
import {
  SRTP_AUTH_TAG_BYTES,
  createSrtpProtector,
  type SrtpProtector,
  type SrtpSessionKeys,
} from './srtp/srtp-aes-cm.js';
import {
  IceSendRoute,
  aesCmSendKeys,
  iceConnection,
  localSrtpContext,
  reportingSender,
  senderTransport,
  type ReportingSender,
} from './werift-internals.js';

/** What a forwarder needs of a publisher's packet; werift's parsed RtpPacket fits as is. */
export interface ForwardedPacket {
  header: { ssrc: number; sequenceNumber: number; timestamp: number; marker: boolean };
  /** One Opus frame. */
  payload: Buffer;
  /** The same frame as Opus RED (with the talker's previous frames), for listeners that take RED. */
  red?: Buffer;
  /**
   * The frame alone in a RED payload, for RED listeners that lose nothing; made by the first
   * forwarder that needs it and kept here for the rest of the fan-out.
   */
  redPrimary?: Buffer;
}

/**
 * One talker's audio towards one listener: `RtpForwarder` here, or `NativeRtpForwarder` with the
 * SFU's addon built (`create-forwarder.ts` chooses).
 */
export interface TalkerForwarder {
  /**
   * Sends one packet to the listener: 'fast' when encrypted here and sent on the nominated UDP
   * socket, 'slow' when handed to werift (its sender, or its ICE connection for TCP and TURN
   * pairs), undefined when not sent (DTLS not up yet, consent to send lost, socket closed).
   */
  send(packet: ForwardedPacket): SendPath | undefined;
  /** The listener's browser reported these sequence numbers lost (RTCP NACK). */
  resend(lost: readonly number[]): void;
  /** The listener no longer hears this talker: forget the keys and the history now. */
  close(): void;
}

const RTP_HEADER_BYTES = 12;
/** The RTP timestamp step of one 20 ms Opus frame, used to bridge a change of source. */
const OPUS_FRAME_TICKS = 960;
/** Seconds from the NTP epoch (1900) to the Unix epoch. */
const NTP_UNIX_OFFSET = 2_208_988_800;
/** How often the sender-report clock pair is refreshed: every 25th packet, twice a second. */
const NTP_EVERY = 25;
/**
 * How many of its last datagrams a forwarder keeps to send again when the listener's browser
 * reports them lost (RTCP NACK): 32 frames, 640 ms, more than any jitter buffer waits for one.
 */
export const NACK_HISTORY = 32;
/**
 * How many packets a listener gets with the talker's earlier frames (RED redundancy) after it last
 * reported a loss: about 10 s of speech. Before its first loss, and once a clean stretch has run
 * this long, a RED listener gets one frame per packet. Measured in Chromium (`npm run bench
 * networks`, clean link, tone bursts after 300 ms of silence with DTX): the redundant blocks keep
 * the listener's jitter buffer 30–50 ms fuller than without (jitterBufferDelay per emitted sample
 * over the bursts ~75 ms against ~29 ms, with a 40 ms target and constant acceleration), which put
 * mouth-to-ear ~46–70 ms behind LiveKit's; without them it is within ~10 ms of it. A lossy link
 * NACKs within a few packets, so it gets the redundancy decision 041 chose.
 */
export const RED_AFTER_LOSS_PACKETS = 500;
/** A datagram is sent again at most this many times, however often a listener asks. */
const MAX_RESENDS = 2;
/** Every forwarder's datagrams: a talker's fan-out leaves in one go once it is encrypted. */
const datagrams = new DatagramBatch();

/**
 * One talker's audio towards one listener. werift's own sender parses every forwarded buffer into a
 * packet object, clones header extensions, creates an AES cipher and an HMAC per packet and walks
 * three async layers to the socket; with one talker and hundreds of listeners that was most of the
 * server's CPU. This writes the listener's RTP header into a fresh buffer, encrypts it with keys
 * taken from werift's DTLS-SRTP session (batched counter-mode keystream, HMAC with precomputed pads)
 * and queues it for the nominated pair's UDP socket; the fan-out's datagrams leave together
 * (`DatagramBatch`).
 *
 * It falls back to werift's sender when the fast path cannot apply: before DTLS is up, when the
 * browser negotiated AES-GCM, or for TCP/TURN pairs (those still get our encryption, sent through
 * werift's ICE connection). `send` says which path a packet took, for the SFU's counters.
 */
export class RtpForwarder implements TalkerForwarder {
  private context: object | undefined;
  private protector: SrtpProtector | undefined;
  private route: IceSendRoute | undefined;
  /** werift's report fields of our sender, undefined when it has none (then no sender reports). */
  private readonly reporting: ReportingSender | undefined;
  private sourceSsrc: number | undefined;
  private seqOffset = randomInt(0x1_0000);
  private timestampOffset = randomInt(0x1_0000_0000);
  private lastSequenceNumber = 0;
  private lastTimestamp = 0;
  private highestIndex = -1;
  private schedule: ReportSchedule | undefined;
  /** The sender's codec last seen, and whether it is RED (the listener's browser negotiated it). */
  private codecSeen: object | undefined;
  private sendsRed = false;
  /** Packets left to send with RED redundancy since the listener last reported a loss. */
  private redundancyLeft = 0;
  /** The last datagrams sent here, by sequence number modulo NACK_HISTORY (already encrypted). */
  private readonly sent: (Buffer | undefined)[] = new Array<Buffer | undefined>(NACK_HISTORY);
  private readonly sentSequence = new Int32Array(NACK_HISTORY).fill(-1);
  private readonly resends = new Uint8Array(NACK_HISTORY);
  private readonly createProtector: (keys: SrtpSessionKeys, ssrc: number) => SrtpProtector;
  private closed = false;

  constructor(
    private readonly transceiver: RTCRtpTransceiver,
    private readonly track: MediaStreamTrack,
    private readonly reports: SenderReports,
    protector: ((keys: SrtpSessionKeys, ssrc: number) => SrtpProtector) | undefined = undefined,
  ) {
    this.createProtector = protector ?? ((keys, ssrc) => createSrtpProtector(keys, ssrc));
    this.reporting = reportingSender(transceiver.sender);
    // werift answers NACKs from its own history, which holds only what went its slow way.
    transceiver.sender.onGenericNack.subscribe((feedback) => this.resend(feedback.lost));
  }

  /**
   * The listener's browser lost these packets (RTCP NACK): the datagrams still in the history go
   * again as they were. An SRTP receiver never saw a lost packet's index, so the same bytes are
   * not a replay; a listener who asks again and again gets each at most MAX_RESENDS times.
   */
  resend(lost: readonly number[]): void {
    if (this.closed) return;
    // A listener that loses packets gets the talker's earlier frames in each packet for a while.
    this.redundancyLeft = RED_AFTER_LOSS_PACKETS;
    const route = this.route;
    if (!route?.canSend()) return;
    for (const sequenceNumber of lost) {
      const slot = sequenceNumber % NACK_HISTORY;
      const datagram = this.sent[slot];
      if (!datagram || this.sentSequence[slot] !== sequenceNumber) continue;
      if (this.resends[slot]! >= MAX_RESENDS) continue;
      this.resends[slot]!++;
      route.send(datagram, datagrams);
    }
  }

  /**
   * Sends one packet to the listener: 'fast' when encrypted here and queued for the nominated
   * UDP socket, 'slow' when handed to werift (its sender, or its ICE connection for TCP and TURN
   * pairs), undefined when not sent (DTLS not up yet, consent to send lost, socket closed).
   */
  send(packet: ForwardedPacket): SendPath | undefined {
    if (this.closed) return undefined;
    const sender = this.transceiver.sender;
    const dtls = senderTransport(sender);
    const codec = sender.codec;
    if (!dtls || dtls.state !== 'connected' || !codec) return undefined;
    if (localSrtpContext(dtls) !== this.context) this.useSession(dtls);
    const protector = this.protector;
    const route = this.route;
    if (!protector || !route) {
      this.track.writeRtp(new RtpPacket(new RtpHeader({ ...packet.header }), packet.payload));
      return 'slow';
    }
    if (!route.canSend()) return undefined;

    if (codec !== this.codecSeen) {
      this.codecSeen = codec;
      this.sendsRed = codec.mimeType.toLowerCase() === 'audio/red';
    }
    const header = packet.header;
    let payload = packet.payload;
    if (this.sendsRed) {
      if (this.redundancyLeft > 0 && packet.red) {
        this.redundancyLeft--;
        payload = packet.red;
      } else {
        payload = packet.redPrimary ??= redPrimaryOnly(packet.payload);
      }
    }
    if (header.ssrc !== this.sourceSsrc) this.followSource(header);
    const sequenceNumber = (header.sequenceNumber + this.seqOffset) & 0xffff;
    const timestamp = (header.timestamp + this.timestampOffset) >>> 0;
    const index = this.packetIndex(sequenceNumber);
    this.lastSequenceNumber = sequenceNumber;
    this.lastTimestamp = timestamp;

    const length = payload.length;
    const out = Buffer.allocUnsafe(RTP_HEADER_BYTES + length + SRTP_AUTH_TAG_BYTES);
    // Byte stores: Buffer's write methods validate their arguments on every call.
    const ssrc = sender.ssrc;
    out[0] = 0x80;
    out[1] = (header.marker ? 0x80 : 0) | (codec.payloadType & 0x7f);
    out[2] = sequenceNumber >>> 8;
    out[3] = sequenceNumber;
    out[4] = timestamp >>> 24;
    out[5] = timestamp >>> 16;
    out[6] = timestamp >>> 8;
    out[7] = timestamp;
    out[8] = ssrc >>> 24;
    out[9] = ssrc >>> 16;
    out[10] = ssrc >>> 8;
    out[11] = ssrc;
    out.set(payload, RTP_HEADER_BYTES);
    protector.protect(out, RTP_HEADER_BYTES, length, index);
    const slot = sequenceNumber % NACK_HISTORY;
    this.sent[slot] = out;
    this.sentSequence[slot] = sequenceNumber;
    this.resends[slot] = 0;
    this.count(length, timestamp);
    const way = route.send(out, datagrams);
    return way && (way === 'udp' ? 'fast' : 'slow');
  }

  close(): void {
    this.closed = true;
    this.protector = undefined;
    this.route = undefined;
    this.sent.fill(undefined);
  }

  private useSession(dtls: RTCDtlsTransport): void {
    this.context = localSrtpContext(dtls);
    const keys = aesCmSendKeys(dtls);
    const connection = iceConnection(dtls);
    this.protector =
      keys && connection ? this.createProtector(keys, this.transceiver.sender.ssrc) : undefined;
    this.route = connection && new IceSendRoute(connection);
    // A new SRTP session starts its packet index afresh; what the old keys encrypted is no use.
    this.highestIndex = -1;
    this.sent.fill(undefined);
    this.sentSequence.fill(-1);
  }

  /** A new upstream SSRC (the talker's stream restarted): continue our numbering seamlessly. */
  private followSource(header: ForwardedPacket['header']): void {
    if (this.sourceSsrc !== undefined) {
      this.seqOffset = (this.lastSequenceNumber + 1 - header.sequenceNumber) & 0xffff;
      this.timestampOffset = (this.lastTimestamp + OPUS_FRAME_TICKS - header.timestamp) >>> 0;
    }
    this.sourceSsrc = header.ssrc;
  }

  /** The 48-bit SRTP index (rollover counter · 2^16 + sequence number), tolerating reordering. */
  private packetIndex(sequenceNumber: number): number {
    if (this.highestIndex < 0) {
      this.highestIndex = sequenceNumber;
      return sequenceNumber;
    }
    const highestSeq = this.highestIndex % 0x1_0000;
    const delta = ((sequenceNumber - highestSeq + 0x8000) & 0xffff) - 0x8000;
    const index = Math.max(0, this.highestIndex + delta);
    if (index > this.highestIndex) this.highestIndex = index;
    return index;
  }

  /** Keeps the sender reports (packet and octet counts, the RTP/NTP clock pair) truthful. */
  private count(payloadBytes: number, timestamp: number): void {
    // werift's own report loop is replaced by `SenderReports`, which reads these fields.
    const stats = this.reporting;
    if (!stats) return;
    stats.packetCount = (stats.packetCount + 1) >>> 0;
    stats.octetCount = (stats.octetCount + payloadBytes) >>> 0;
    if (stats.packetCount % NTP_EVERY === 1) {
      stats.rtpTimestamp = timestamp;
      stats.ntpTimestamp = ntpNow();
    }
    if (!this.schedule?.active) this.schedule = this.reports.sent(stats);
  }
}

function ntpNow(): bigint {
  const ms = performance.timeOrigin + performance.now();
  const seconds = Math.floor(ms / 1000);
  const fraction = Math.floor(((ms % 1000) / 1000) * 0x1_0000_0000);
  return (BigInt(seconds + NTP_UNIX_OFFSET) << 32n) | BigInt(fraction);
}
