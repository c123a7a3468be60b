import { describe, expect, it } from 'vitest';
import { RTCPeerConnection } from 'werift';
import {
  announceAddress,
  participantPeerConfig,
  restoreOfferedCodecParameters,
  sfuPeerConfig,
} from './peer-config.js';

describe('peer config', () => {
  it('never falls back to werift’s public STUN default, and uses the port range', () => {
    const config = sfuPeerConfig({ iceServers: [], portRange: [40000, 40100] });
    expect(config.iceServers).toEqual([]);
    expect(config.icePortRange).toEqual([40000, 40100]);
    expect(config.headerExtensions).toEqual({ audio: [], video: [] });
    expect(sfuPeerConfig({ iceServers: [], portRange: [0, 0] }).icePortRange).toBeUndefined();
  });

  it('adds an announced-address twin of each host candidate', () => {
    const sdp = [
      'v=0',
      'a=candidate:1 1 udp 2130706431 10.0.0.5 40002 typ host',
      'a=end-of-candidates',
    ].join('\r\n');
    const lines = announceAddress(sdp, '203.0.113.7').split('\r\n');
    expect(lines).toContain('a=candidate:1 1 udp 2130706431 10.0.0.5 40002 typ host');
    expect(lines).toContain('a=candidate:1a 1 udp 2130705431 203.0.113.7 40002 typ host');
    expect(announceAddress(sdp, undefined)).toBe(sdp);
  });

  it('asks for DTX in every offer, also after a browser answered without it', async () => {
    const config = sfuPeerConfig({ iceServers: [] });
    const server = new RTCPeerConnection(config);
    const browser = new RTCPeerConnection(participantPeerConfig({ red: true }));
    const OUR_OPUS_FMTP = 'a=fmtp:111 minptime=10;useinbandfec=1;usedtx=1;maxaveragebitrate=20000';
    const opusFmtp = (sdp: string) => sdp.split('\r\n').filter((l) => l.startsWith('a=fmtp:111'));
    try {
      server.addTransceiver('audio', { direction: 'recvonly' });
      const first = await server.createOffer();
      await server.setLocalDescription(first);
      expect(opusFmtp(first.sdp)).toEqual([OUR_OPUS_FMTP]);
      await browser.setRemoteDescription(first);
      const answer = await browser.createAnswer();
      await browser.setLocalDescription(answer);
      // Chrome answers with its own Opus parameters, which never name usedtx.
      const chromeLike = answer.sdp.replace(';usedtx=1;maxaveragebitrate=20000', '');
      expect(opusFmtp(chromeLike)).toEqual(['a=fmtp:111 minptime=10;useinbandfec=1']);
      await server.setRemoteDescription({ type: 'answer', sdp: chromeLike });

      restoreOfferedCodecParameters(server.getTransceivers(), config);
      const second = await server.createOffer();
      expect(opusFmtp(second.sdp)).toEqual([OUR_OPUS_FMTP]);
    } finally {
      await Promise.all([server.close(), browser.close()]);
    }
  });
});
