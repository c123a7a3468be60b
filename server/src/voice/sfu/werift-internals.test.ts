import {
  RTCRtpSender,
  RtcpReceiverInfo,
  RtcpRrPacket,
  RtcpSenderInfo,
  RtcpSrPacket,
  RtpHeader,
  RtpPacket,
} from 'werift';
import { describe, expect, it } from 'vitest';
import type { RTCPeerConnection } from 'werift';
import {
  PEER_DATAGRAM_LIMITS,
  interceptDatagrams,
  isRtcp,
  reportingSender,
} from './werift-internals.js';

describe('isRtcp (RTCP told apart from RTP on one socket)', () => {
  it('never takes the browser’s Opus RTP for RTCP, with or without the marker bit', () => {
    for (const marker of [false, true])
      for (const payloadType of [96, 100, 109, 111, 127]) {
        const rtp = new RtpPacket(
          new RtpHeader({ payloadType, marker, sequenceNumber: 7, timestamp: 960, ssrc: 42 }),
          Buffer.alloc(40, 1),
        ).serialize();
        expect(isRtcp(rtp), `PT ${payloadType} marker ${marker}`).toBe(false);
      }
  });

  it('recognises sender and receiver reports, alone or compound', () => {
    const sr = new RtcpSrPacket({
      ssrc: 1,
      senderInfo: new RtcpSenderInfo({
        ntpTimestamp: 1n,
        rtpTimestamp: 2,
        packetCount: 3,
        octetCount: 4,
      }),
    }).serialize();
    const rr = new RtcpRrPacket({
      ssrc: 2,
      reports: [
        new RtcpReceiverInfo({
          ssrc: 1,
          fractionLost: 0,
          packetsLost: 0,
          highestSequence: 7,
          jitter: 0,
          lsr: 0,
          dlsr: 0,
        }),
      ],
    }).serialize();
    expect(isRtcp(sr)).toBe(true);
    expect(isRtcp(rr)).toBe(true);
    expect(isRtcp(Buffer.concat([rr, sr]))).toBe(true);
  });

  it('leaves STUN and DTLS alone', () => {
    expect(isRtcp(Buffer.from('000100502112a442000000000000000000000000', 'hex'))).toBe(false);
    expect(isRtcp(Buffer.from('16fefd000000000000000000', 'hex'))).toBe(false);
  });
});

describe('reportingSender (the counters RTCP sender reports read)', () => {
  it('finds them on werift’s own sender, where forwarding keeps them up to date', () => {
    const sender = new RTCRtpSender('audio');
    expect(reportingSender(sender)).toMatchObject({
      packetCount: 0,
      octetCount: 0,
      ssrc: sender.ssrc,
    });
  });

  it('answers undefined for a sender without them, so no report carries made-up counts', () => {
    expect(reportingSender({ ssrc: 1 } as unknown as RTCRtpSender)).toBeUndefined();
  });
});

describe('interceptDatagrams (the SFU in front of werift on a connected peer’s sockets)', () => {
  /** werift's ICE connection and peer connection as `interceptDatagrams` reads them. */
  function peerWith<P>(protocol: P) {
    const connection = {
      localUsername: 'local',
      localPassword: 'local-password-local-password',
      remoteUsername: 'remote',
      iceControlling: false,
      protocols: [protocol],
      send: async () => undefined,
    };
    return { connection, pc: { dtlsTransports: [{ iceTransport: { connection } }] } };
  }

  /** A connected peer as werift shapes it: one UDP socket, whose datagrams werift would read. */
  function connectedPeer() {
    const reachedWerift: Buffer[] = [];
    const toWerift = (data: Buffer, _from?: [string, number]) => void reachedWerift.push(data);
    const protocol = {
      transport: { socket: { send: () => undefined }, closed: false },
      datagramReceived: toWerift,
    };
    const { connection, pc } = peerWith<object>(protocol);
    interceptDatagrams(pc as unknown as RTCPeerConnection);
    const receive = (data: Buffer) => protocol.datagramReceived(data, ['203.0.113.5', 40000]);
    /** A new socket of the same connection (an ICE restart found a new pair). */
    const newSocket = () => {
      const added = { ...protocol, datagramReceived: toWerift };
      connection.protocols.push(added);
      interceptDatagrams(pc as unknown as RTCPeerConnection);
      return (data: Buffer) => added.datagramReceived(data, ['198.51.100.7', 40001]);
    };
    return { receive, reachedWerift, newSocket };
  }
  /** An SRTCP-shaped datagram (a generic NACK): werift would authenticate and decrypt it. */
  const nack = Buffer.from([0x81, 205, 0, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0]);

  it('hands a browser’s second of media and reports to werift whole', () => {
    const peer = connectedPeer();
    for (let i = 0; i < 100; i++) peer.receive(Buffer.from([0x80, 111, 0, i]));
    for (let i = 0; i < 5; i++) peer.receive(nack);
    expect(peer.reachedWerift).toHaveLength(105);
  });

  it('drops a flood of the peer’s own RTCP past its budget before werift decrypts it', () => {
    const peer = connectedPeer();
    for (let i = 0; i < 10_000; i++) peer.receive(nack);
    expect(peer.reachedWerift.length).toBeGreaterThanOrEqual(PEER_DATAGRAM_LIMITS.burst);
    // The burst, and what accrues in the few milliseconds the loop takes.
    expect(peer.reachedWerift.length).toBeLessThan(PEER_DATAGRAM_LIMITS.burst + 50);
  });

  it('keeps one budget per connection when its sockets are taken over again (an ICE restart)', () => {
    const peer = connectedPeer();
    for (let i = 0; i < 10_000; i++) peer.receive(nack);
    const before = peer.reachedWerift.length;
    const receiveOnNewSocket = peer.newSocket();
    for (let i = 0; i < 1_000; i++) receiveOnNewSocket(nack);
    expect(peer.reachedWerift.length - before).toBeLessThan(50);
  });

  it('holds the frames of a peer’s ICE-TCP stream to the same budget', () => {
    // werift's TcpPassiveProtocol: no UDP socket; each RFC 4571 frame goes to handleFrame.
    const reachedWerift: Buffer[] = [];
    const tcp = {
      handleFrame: (data: Buffer, _from: [string, number]) => void reachedWerift.push(data),
    };
    const { pc } = peerWith(tcp);
    interceptDatagrams(pc as unknown as RTCPeerConnection);
    for (let i = 0; i < 100; i++)
      tcp.handleFrame(Buffer.from([0x80, 111, 0, i]), ['203.0.113.5', 443]);
    expect(reachedWerift).toHaveLength(100); // a second of media goes through whole
    for (let i = 0; i < 10_000; i++) tcp.handleFrame(nack, ['203.0.113.5', 443]);
    expect(reachedWerift.length).toBeLessThan(PEER_DATAGRAM_LIMITS.burst + 50);
    // Taken over once: a second interception (an ICE restart) does not wrap it again.
    interceptDatagrams(pc as unknown as RTCPeerConnection);
    const before = reachedWerift.length;
    for (let i = 0; i < 1_000; i++) tcp.handleFrame(nack, ['203.0.113.5', 443]);
    expect(reachedWerift.length - before).toBeLessThan(50);
  });
});
