import type { Socket } from 'node:dgram';
import { Event, type GenericNack, type RTCRtpTransceiver, type RtcpPacket } from 'werift';
import { nativeDatagrams } from '../native/native-datagrams.js';
import { NativeRtpForwarder } from '../native-rtp-forwarder.js';
import { RtpForwarder, type TalkerForwarder } from '../rtp-forwarder.js';
import type { SenderReports } from '../sender-reports.js';
import { SrtpAesCmProtector } from '../srtp/srtp-aes-cm.js';

export interface StandInForwarderOptions {
  /** The local socket the forwarder sends on (the nominated pair's). */
  socket: Socket;
  /** The listener's port on 127.0.0.1. */
  remotePort: number;
  /** The listener's SSRC for this talker. */
  ssrc: number;
  /** werift's outgoing SRTP context (`profile` and the session `cipher` keys). */
  localContext: object;
  reports: SenderReports;
  /** The listener's browser negotiated Opus RED (payload type 63) rather than plain Opus (111). */
  red?: boolean;
  /**
   * 'native': `NativeRtpForwarder` (the addon's fan-out; the default when it is built);
   * 'javascript': `RtpForwarder` with the JavaScript SRTP, as on a server without the addon.
   */
  kind?: ForwarderKind;
  /**
   * The nominated pair is not plain UDP (TCP, or through TURN): datagrams go through werift's ICE
   * connection, which hands them to this instead of the socket.
   */
  throughWerift?: (datagram: Buffer) => void;
  /** Sees the RTCP packets (sender reports) sent to the listener. */
  onRtcp?: (packets: RtcpPacket[]) => void;
}

export type ForwarderKind = 'native' | 'javascript';

/** The forwarder kinds this machine can run: 'native' only with the addon built. */
export function forwarderKinds(): ForwarderKind[] {
  return nativeDatagrams() ? ['native', 'javascript'] : ['javascript'];
}

/**
 * A forwarder (`kind`) on werift-shaped stand-ins for the DTLS and ICE objects it reads (the shapes
 * `werift-internals.ts` checks), for the forwarder's tests and `bench/sfu/rtp-forwarder.bench.ts`.
 * Setting `transport.closed` makes the forwarder stop sending, as when werift closes the socket.
 */
export function standInForwarder(options: StandInForwarderOptions) {
  const transport = {
    type: options.throughWerift ? 'tcp' : 'udp',
    closed: false,
    socket: options.socket,
  };
  const connection = {
    nominated: {
      protocol: { transport },
      remoteCandidate: { host: '127.0.0.1', port: options.remotePort },
    },
    canSendApplicationData: () => true,
    send: (datagram: Buffer) => {
      options.throughWerift?.(datagram);
      return Promise.resolve();
    },
  };
  const sender = {
    dtlsTransport: {
      state: 'connected',
      srtp: { localContext: options.localContext },
      iceTransport: { connection },
      sendRtcp: (packets: RtcpPacket[]) => {
        options.onRtcp?.(packets);
        return Promise.resolve();
      },
    },
    codec: options.red
      ? { payloadType: 63, mimeType: 'audio/red' }
      : { payloadType: 111, mimeType: 'audio/opus' },
    ssrc: options.ssrc,
    /** werift fires it with each RTCP NACK the listener's browser sends. */
    onGenericNack: new Event<[GenericNack]>(),
    packetCount: 0,
    octetCount: 0,
    rtpTimestamp: 0,
    ntpTimestamp: 0n,
  };
  // Only the fields the forwarder reads; the track is used only before DTLS is up.
  const transceiver = { sender } as unknown as RTCRtpTransceiver;
  const native = nativeDatagrams();
  const kind = options.kind ?? (native ? 'native' : 'javascript');
  const forwarder: TalkerForwarder =
    kind === 'native' && native
      ? new NativeRtpForwarder(transceiver, {} as never, options.reports, native)
      : new RtpForwarder(
          transceiver,
          {} as never,
          options.reports,
          (keys, ssrc) => new SrtpAesCmProtector(keys, ssrc),
        );
  return { forwarder, sender, transport };
}
