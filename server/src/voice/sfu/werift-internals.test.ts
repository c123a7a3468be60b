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
import { isRtcp, reportingSender } from './werift-internals.js';

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
