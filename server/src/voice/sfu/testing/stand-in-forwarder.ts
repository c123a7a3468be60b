import type { Socket } from 'node:dgram';
import { Event, type GenericNack, type RTCRtpTransceiver } from 'werift';
import { RtpForwarder } from '../rtp-forwarder.js';
import type { SenderReports } from '../sender-reports.js';

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
}

/**
 * An `RtpForwarder` on werift-shaped stand-ins for the DTLS and ICE objects it reads (the shapes
 * `werift-internals.ts` checks), for the forwarder's tests and `bench/sfu/rtp-forwarder.bench.ts`.
 * Setting `transport.closed` makes the forwarder stop sending, as when werift closes the socket.
 */
export function standInForwarder(options: StandInForwarderOptions) {
  const transport = { type: 'udp', closed: false, socket: options.socket };
  const connection = {
    nominated: {
      protocol: { transport },
      remoteCandidate: { host: '127.0.0.1', port: options.remotePort },
    },
    canSendApplicationData: () => true,
    send: () => Promise.resolve(),
  };
  const sender = {
    dtlsTransport: {
      state: 'connected',
      srtp: { localContext: options.localContext },
      iceTransport: { connection },
      sendRtcp: () => Promise.resolve(),
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
  const forwarder = new RtpForwarder(
    { sender } as unknown as RTCRtpTransceiver,
    {} as never,
    options.reports,
  );
  return { forwarder, sender, transport };
}
