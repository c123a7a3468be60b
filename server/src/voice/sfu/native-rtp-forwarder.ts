import { randomInt } from 'node:crypto';
import {
  RtpHeader,
  RtpPacket,
  type MediaStreamTrack,
  type RTCDtlsTransport,
  type RTCRtpTransceiver,
} from 'werift';
import { DatagramBatch, socketDescriptor } from './datagram-batch.js';
import type { NativeDatagrams, NativeForwarder } from './native/native-datagrams.js';
import { redPrimaryOnly } from './opus-red.js';
import {
  RED_AFTER_LOSS_PACKETS,
  type ForwardedPacket,
  type TalkerForwarder,
} from './rtp-forwarder.js';
import type { ReportSchedule, SenderReports } from './sender-reports.js';
import type { SendPath } from './sfu-counters.js';
import {
  IceSendRoute,
  aesCmSendKeys,
  iceConnection,
  localSrtpContext,
  reportingSender,
  senderTransport,
  type ReportingSender,
  type UdpRoute,
} from './werift-internals.js';

/** Only its `socketAddress`: the destinations in the form the addon sends to. */
const addresses = new DatagramBatch();
/** `forwarderReport`'s output, reused: packets, octets, RTP timestamp, NTP seconds and fraction. */
const reportFields = new Uint32Array(5);

/**
 * The listeners of one talker packet, handed to the addon in one call once the room's forwarding
 * loop is done (in the same tick, as `DatagramBatch` sent them before).
 */
class NativeFanOut {
  private readonly forwarders: (NativeForwarder | undefined)[] = [];
  private count = 0;
  private packet: ForwardedPacket | undefined;
  private scheduled = false;
  private readonly flushNow = () => {
    this.scheduled = false;
    this.flush();
  };

  constructor(private readonly native: NativeDatagrams) {}

  add(forwarder: NativeForwarder, packet: ForwardedPacket): void {
    if (packet !== this.packet) {
      this.flush();
      this.packet = packet;
    }
    this.forwarders[this.count++] = forwarder;
    if (!this.scheduled) {
      this.scheduled = true;
      process.nextTick(this.flushNow);
    }
  }

  flush(): void {
    const packet = this.packet;
    const count = this.count;
    this.packet = undefined;
    this.count = 0;
    if (!packet || count === 0) return;
    const { header } = packet;
    try {
      this.native.forwardPacket(
        this.forwarders,
        count,
        header.ssrc,
        header.sequenceNumber,
        header.timestamp,
        header.marker,
        packet.payload,
        packet.red ?? null,
        packet.redPrimary ?? null,
      );
    } catch {
      // Only wrong arguments throw, and this class makes them itself; a throw from the nextTick
      // would end the process, so the fan-out is lost instead.
    }
    this.forwarders.fill(undefined, 0, count);
  }
}

let fanOuts: WeakMap<NativeDatagrams, NativeFanOut> | undefined;

function fanOutOf(native: NativeDatagrams): NativeFanOut {
  fanOuts ??= new WeakMap();
  let fanOut = fanOuts.get(native);
  if (!fanOut) {
    fanOut = new NativeFanOut(native);
    fanOuts.set(native, fanOut);
  }
  return fanOut;
}

/**
 * `RtpForwarder` with its per-packet work in the SFU's addon (`native/fan-out.c`, decision 060):
 * the listener's header, the SRTP, the NACK history and the sender-report counts live in C, and a
 * talker's whole fan-out is one call. What stays here runs per listener but only reads: is DTLS up,
 * which keys, which codec, which socket — each change is handed to the addon once. The bytes sent
 * are `RtpForwarder`'s (`rtp-forwarder.test.ts` runs both).
 *
 * TCP and TURN pairs get the datagram built in C and sent through werift; before DTLS is up, or
 * with AES-GCM, werift's own sender sends, as for `RtpForwarder`.
 */
export class NativeRtpForwarder implements TalkerForwarder {
  /** Made at the first packet: a member who never talks costs no C memory. */
  private state: NativeForwarder | undefined;
  private context: object | undefined;
  private keyed = false;
  private route: IceSendRoute | undefined;
  /** The route and descriptor last handed to the addon; -2 before any. */
  private routed: UdpRoute | undefined;
  private routedFd = -2;
  private readonly reporting: ReportingSender | undefined;
  private schedule: ReportSchedule | undefined;
  private codecSeen: object | undefined;
  private sendsRed = false;
  private readonly fanOut: NativeFanOut;
  private closed = false;

  constructor(
    private readonly transceiver: RTCRtpTransceiver,
    private readonly track: MediaStreamTrack,
    private readonly reports: SenderReports,
    private readonly native: NativeDatagrams,
    private readonly sequenceOffset = randomInt(0x1_0000),
    private readonly timestampOffset = randomInt(0x1_0000_0000),
  ) {
    this.reporting = reportingSender(transceiver.sender);
    this.fanOut = fanOutOf(native);
    // werift answers NACKs from its own history, which holds only what went its slow way.
    transceiver.sender.onGenericNack.subscribe((feedback) => this.resend(feedback.lost));
  }

  send(packet: ForwardedPacket): SendPath | undefined {
    if (this.closed) return undefined;
    const sender = this.transceiver.sender;
    const dtls = senderTransport(sender);
    const codec = sender.codec;
    if (!dtls || dtls.state !== 'connected' || !codec) return undefined;
    if (localSrtpContext(dtls) !== this.context) this.useSession(dtls);
    const route = this.route;
    const state = this.state;
    if (!this.keyed || !route || !state) {
      this.track.writeRtp(new RtpPacket(new RtpHeader({ ...packet.header }), packet.payload));
      return 'slow';
    }
    if (!route.canSend()) return undefined;
    if (codec !== this.codecSeen) {
      this.codecSeen = codec;
      this.sendsRed = codec.mimeType.toLowerCase() === 'audio/red';
      this.native.forwarderCodec(state, codec.payloadType & 0x7f, this.sendsRed);
    }
    // A RED listener without redundancy gets the frame alone in a RED payload, made once.
    if (this.sendsRed) packet.redPrimary ??= redPrimaryOnly(packet.payload);
    if (this.reporting && !this.schedule?.active)
      this.schedule = this.reports.sent(this.reporting, this.refreshReports);

    const destination = route.destination(addresses);
    if (!destination) return undefined;
    if (destination === 'werift') {
      this.routeTo(state, undefined, -1);
      const datagram = this.build(state, packet);
      if (!datagram) return undefined;
      route.sendThroughWerift(datagram);
      return 'slow';
    }
    // The descriptor is read once per pair: werift marks the transport closed before it closes
    // the socket, so a descriptor the kernel gave to another socket is never used.
    if (destination !== this.routed) {
      const fd = socketDescriptor(destination.socket);
      this.routeTo(state, destination, fd !== undefined && destination.address ? fd : -1);
    }
    if (this.routedFd < 0) {
      // Node's socket internals are not what `datagram-batch.ts` knows: no descriptor to send on.
      return this.sendThroughSocket(state, destination, packet);
    }
    this.fanOut.add(state, packet);
    return 'fast';
  }

  /**
   * The listener's browser lost these packets (RTCP NACK): the datagrams still in the addon's
   * history go again as they were, each at most twice, and the listener gets RED redundancy for a
   * while (see `RtpForwarder.resend`).
   */
  resend(lost: readonly number[]): void {
    if (this.closed) return;
    const state = this.nativeState();
    const route = this.route;
    const destination = this.keyed && route?.canSend() ? route.destination(addresses) : undefined;
    if (route && destination === 'werift') {
      for (const datagram of this.native.resendLost(state, lost, true))
        route.sendThroughWerift(datagram);
      return;
    }
    const sendable = destination && destination === this.routed && this.routedFd >= 0;
    this.native.resendLost(state, sendable ? lost : [], false);
  }

  close(): void {
    this.closed = true;
    if (this.state) this.native.closeForwarder(this.state);
  }

  private useSession(dtls: RTCDtlsTransport): void {
    this.context = localSrtpContext(dtls);
    const keys = aesCmSendKeys(dtls);
    const connection = iceConnection(dtls);
    const state = this.nativeState();
    this.keyed = Boolean(keys && connection);
    // A new SRTP session starts its packet index afresh and drops the old keys' history.
    if (keys && connection) this.native.forwarderKeys(state, keys.key, keys.salt, keys.authKey);
    else this.native.forwarderKeys(state, null, null, null);
    this.route = connection && new IceSendRoute(connection);
    this.routed = undefined;
    this.routedFd = -2;
  }

  private nativeState(): NativeForwarder {
    return (this.state ??= this.native.createForwarder(
      this.transceiver.sender.ssrc,
      this.sequenceOffset,
      this.timestampOffset,
      RED_AFTER_LOSS_PACKETS,
    ));
  }

  /** Hands the addon where this listener's datagrams go: `route` on `fd`, or nowhere (-1). */
  private routeTo(state: NativeForwarder, route: UdpRoute | undefined, fd: number): void {
    if (route === this.routed && fd === this.routedFd) return;
    this.routed = route;
    this.routedFd = fd;
    this.native.forwarderRoute(state, fd, fd >= 0 ? (route?.address ?? null) : null);
  }

  /** A socket whose descriptor is out of reach: the datagram is built in C and sent by Node. */
  private sendThroughSocket(
    state: NativeForwarder,
    route: UdpRoute,
    packet: ForwardedPacket,
  ): SendPath | undefined {
    const datagram = this.build(state, packet);
    if (!datagram) return undefined;
    try {
      route.socket.send(datagram, route.port, route.host);
    } catch {
      // Closed meanwhile: a lost datagram, as on the wire.
    }
    return 'fast';
  }

  /** The listener's datagram for `packet`, built (and kept for NACKs) in C, for another send. */
  private build(state: NativeForwarder, packet: ForwardedPacket): Buffer | null {
    const { header } = packet;
    return this.native.buildDatagram(
      state,
      header.ssrc,
      header.sequenceNumber,
      header.timestamp,
      header.marker,
      packet.payload,
      packet.red ?? null,
      packet.redPrimary ?? null,
    );
  }

  /** Copies the addon's counts and clock pair into werift's report fields (`SenderReports`). */
  private readonly refreshReports = () => {
    const stats = this.reporting;
    const state = this.state;
    if (!stats || !state) return;
    this.native.forwarderReport(state, reportFields);
    stats.packetCount = reportFields[0]!;
    stats.octetCount = reportFields[1]!;
    if (stats.packetCount > 0) {
      stats.rtpTimestamp = reportFields[2]!;
      stats.ntpTimestamp = (BigInt(reportFields[3]!) << 32n) | BigInt(reportFields[4]!);
    }
  };
}
