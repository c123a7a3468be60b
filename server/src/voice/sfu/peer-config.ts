import {
  RTCRtpCodecParameters,
  type RTCIceServer,
  type RTCPeerConnectionConfig,
  type RTCRtpTransceiver,
} from 'werift';
import { OPUS_PAYLOAD_TYPE, RED_PAYLOAD_TYPE } from './opus-red.js';

/** What a talker's browser may spend on its Opus frames, bits per second. */
export const OPUS_MAX_AVERAGE_BITRATE = 16_000;

export interface SfuNetworkOptions {
  /** Explicit list: werift would otherwise use a public STUN server, which offline hosts cannot reach. */
  iceServers: RTCIceServer[];
  /** Inclusive UDP port range for ICE (RTC_PORT_MIN/MAX); any free port when omitted. */
  portRange?: [number, number];
  /** Public address to advertise besides the host candidates (RTC_ANNOUNCED_IP), for 1:1 NAT. */
  announcedIp?: string;
  /** Also gather ICE-TCP candidates, for clients whose UDP is blocked. */
  iceTcp?: boolean;
  /** Extra host addresses to gather on, e.g. '127.0.0.1' so loopback tests and benches connect. */
  additionalHostAddresses?: string[];
}

/**
 * Opus is the only codec: voice only, and every browser sends it, so no transcoding ever happens.
 * In-band FEC stays on; DTX sends next to nothing while the microphone hears silence (a packet
 * every 400 ms instead of 50 a second); 16 kbit/s is clear wideband speech and leaves room for a RED copy
 * of each frame within a 64 kbit/s link (decision 041).
 */
export function opusCodec(): RTCRtpCodecParameters {
  return new RTCRtpCodecParameters({
    mimeType: 'audio/opus',
    clockRate: 48000,
    channels: 2,
    payloadType: OPUS_PAYLOAD_TYPE,
    rtcpFeedback: [{ type: 'nack' }],
    parameters: `minptime=10;useinbandfec=1;usedtx=1;maxaveragebitrate=${OPUS_MAX_AVERAGE_BITRATE}`,
  });
}

/**
 * Opus RED (RFC 2198), offered first: listeners whose browsers take it get each frame again in
 * the next packets (`opus-red.ts`), the others plain Opus. Browsers answer in the offer's order, so
 * a talker's browser that supports RED also sends it; werift unpacks it on arrival.
 */
export function redCodec(): RTCRtpCodecParameters {
  return new RTCRtpCodecParameters({
    mimeType: 'audio/red',
    clockRate: 48000,
    channels: 2,
    payloadType: RED_PAYLOAD_TYPE,
    rtcpFeedback: [{ type: 'nack' }],
    parameters: `${OPUS_PAYLOAD_TYPE}/${OPUS_PAYLOAD_TYPE}`,
  });
}

/**
 * The server's peers. ICE-lite: the browser, a full agent, runs the connectivity checks and
 * nominates; the server answers them. As in mediasoup and LiveKit, the server then keeps no check
 * or consent timers of its own per peer, and a busy event loop cannot fail a join by answering a
 * check late (with werift as the controlling agent, 100 joins at once on a loaded machine left
 * a few peers nominated on one side only). Dead clients are found by their signalling socket.
 */
export function sfuPeerConfig(network: SfuNetworkOptions): RTCPeerConnectionConfig {
  return { ...peerConfig(network, [redCodec(), opusCodec()]), iceLite: true };
}

/**
 * A werift participant (integration tests, benches): a full ICE agent, like a browser; plain Opus
 * unless `red` (then its sender wraps what it sends in RED, as a browser does).
 */
export function participantPeerConfig({ red = false } = {}): RTCPeerConnectionConfig {
  const codecs = red ? [redCodec(), opusCodec()] : [opusCodec()];
  return { ...peerConfig({ iceServers: [] }, codecs), iceLite: false };
}

function peerConfig(
  network: SfuNetworkOptions,
  audioCodecs: RTCRtpCodecParameters[],
): RTCPeerConnectionConfig {
  const [min, max] = network.portRange ?? [];
  return {
    iceServers: network.iceServers,
    codecs: { audio: audioCodecs, video: [] },
    // No header extensions: forwarded packets would carry ids negotiated with a different peer.
    headerExtensions: { audio: [], video: [] },
    bundlePolicy: 'max-bundle',
    icePortRange:
      min !== undefined && max !== undefined && min > 0 && max > min ? [min, max] : undefined,
    iceUseTcp: network.iceTcp ?? false,
    iceUseIpv6: false,
    iceAdditionalHostAddresses: network.additionalHostAddresses,
  };
}

/**
 * werift takes the codecs of each applied answer, parameters included, for its next offer on that
 * m-line; a browser's answer leaves out what only a receiver asks for (`usedtx`), so without this
 * the second offer would turn the talker's DTX off. Called before each offer: every negotiated
 * codec gets the server's own parameters back.
 */
export function restoreOfferedCodecParameters(
  transceivers: RTCRtpTransceiver[],
  config: RTCPeerConnectionConfig,
): void {
  const offered = config.codecs?.audio ?? [];
  for (const transceiver of transceivers) {
    if (transceiver.kind !== 'audio') continue;
    transceiver.codecs = transceiver.codecs.map(
      (codec) =>
        offered.find(
          (own) =>
            own.payloadType === codec.payloadType &&
            own.mimeType.toLowerCase() === codec.mimeType.toLowerCase(),
        ) ?? codec,
    );
  }
}

/**
 * werift has no 1:1 NAT setting, so each host candidate is repeated with the announced address and
 * the same port (what mediasoup calls announcedIp). Browsers try both; the public one wins behind NAT.
 */
export function announceAddress(sdp: string, announcedIp: string | undefined): string {
  if (!announcedIp) return sdp;
  const lines = sdp.split('\r\n');
  const out: string[] = [];
  for (const line of lines) {
    out.push(line);
    const match = /^a=candidate:(\S+) (\d) (\S+) (\d+) (\S+) (\d+) typ host(.*)$/.exec(line);
    if (!match) continue;
    const [, foundation, component, transport, priority, address, port, rest] = match;
    if (address === announcedIp) continue;
    // Lower priority than the host candidate so LAN clients keep the direct path.
    const lowered = Math.max(1, Number(priority) - 1000);
    out.push(
      `a=candidate:${foundation}a ${component} ${transport} ${lowered} ${announcedIp} ${port} typ host${rest ?? ''}`,
    );
  }
  return out.join('\r\n');
}
