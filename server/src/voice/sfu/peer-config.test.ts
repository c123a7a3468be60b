import { describe, expect, it } from 'vitest';
import { announceAddress, sfuPeerConfig } from './peer-config.js';

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
});
