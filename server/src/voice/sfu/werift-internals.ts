import type { Socket } from 'node:dgram';
import { isIP } from 'node:net';
import {
  ProtectionProfileAeadAes128Gcm,
  ProtectionProfileAes128CmHmacSha1_80,
  type RTCDtlsTransport,
  type RTCPeerConnection,
} from 'werift';
import { BindingResponder, type BindingAgent } from './binding-responder.js';
import type { SrtpSessionKeys } from './srtp/srtp-aes-cm.js';

/**
 * The few werift 0.24 internals the forwarding fast path reads, in one place: the negotiated SRTP
 * session keys, the nominated ICE pair's UDP socket, and the SRTP profile preference. Each accessor
 * checks the shape it expects and answers `undefined` otherwise, so a werift upgrade that moves
 * them makes forwarding fall back to werift's own (slower) sender instead of breaking.
 */
interface CipherShape {
  srtpSessionKey?: Buffer;
  srtpSessionSalt?: Buffer;
  srtpSessionAuthTag?: Buffer;
}

interface LocalContextShape {
  profile?: number;
  cipher?: CipherShape;
}

interface UdpTransportShape {
  type?: string;
  closed?: boolean;
  socket?: Socket;
}

interface StunProtocolShape {
  transport?: UdpTransportShape;
  datagramReceived?: (data: Buffer, addr: [string, number]) => void;
}

export interface NominatedPairShape {
  protocol?: StunProtocolShape;
  remoteCandidate?: { host: string; port: number };
}

export interface IceConnectionShape {
  nominated?: NominatedPairShape;
  protocols?: StunProtocolShape[];
  canSendApplicationData?: () => boolean;
  send: (data: Buffer) => Promise<void>;
}

interface DtlsTransportShape {
  state: string;
  srtpProfiles?: number[];
  srtp?: { localContext?: LocalContextShape };
  iceTransport?: { connection?: IceConnectionShape };
}

const shape = (transport: RTCDtlsTransport) => transport as unknown as DtlsTransportShape;

/**
 * Asks for SRTP_AES128_CM_HMAC_SHA1_80 ahead of AES-GCM on the peer's transports that have not
 * shaken hands yet. Browsers offer both; werift, as the DTLS server, picks by its own order, which
 * prefers GCM — and GCM needs a fresh cipher object per packet, whereas counter mode lets the fast
 * path compute keystream ahead in batches.
 */
export function preferAesCmSrtp(pc: RTCPeerConnection): void {
  for (const transport of pc.dtlsTransports) {
    const internal = shape(transport);
    if (internal.state === 'new' && Array.isArray(internal.srtpProfiles)) {
      internal.srtpProfiles = [
        ProtectionProfileAes128CmHmacSha1_80,
        ProtectionProfileAeadAes128Gcm,
      ];
    }
  }
}

/** The outgoing SRTP context, to notice when a new DTLS session replaced it. */
export function localSrtpContext(transport: RTCDtlsTransport): object | undefined {
  return shape(transport).srtp?.localContext;
}

/** The outgoing session keys when the negotiated profile is AES-CM with HMAC-SHA1-80. */
export function aesCmSendKeys(transport: RTCDtlsTransport): SrtpSessionKeys | undefined {
  const context = shape(transport).srtp?.localContext;
  const cipher = context?.cipher;
  if (context?.profile !== ProtectionProfileAes128CmHmacSha1_80 || !cipher) return undefined;
  const { srtpSessionKey: key, srtpSessionSalt: salt, srtpSessionAuthTag: authKey } = cipher;
  if (key?.length !== 16 || salt?.length !== 14 || authKey?.length !== 20) return undefined;
  return { key, salt, authKey };
}

export function iceConnection(transport: RTCDtlsTransport): IceConnectionShape | undefined {
  const connection = shape(transport).iceTransport?.connection;
  return typeof connection?.send === 'function' ? connection : undefined;
}

export interface UdpRoute {
  transport: UdpTransportShape;
  socket: Socket;
  host: string;
  port: number;
}

/**
 * The UDP socket and address of a nominated pair; undefined for TCP and TURN pairs and for remote
 * names that need resolving, which keep going through werift.
 */
export function udpRoute(pair: NominatedPairShape): UdpRoute | undefined {
  const transport = pair.protocol?.transport;
  const remote = pair.remoteCandidate;
  if (transport?.type !== 'udp' || !transport.socket || !remote || !isIP(remote.host))
    return undefined;
  return { transport, socket: transport.socket, host: remote.host, port: remote.port };
}

const answered = new WeakSet<StunProtocolShape>();

/**
 * Puts the SFU in front of werift on each of the connection's UDP sockets, once it is connected:
 * - a routine consent check on the nominated pair is answered by a `BindingResponder`;
 * - RTCP from the browser is dropped unread. The SFU uses none of it (no NACK or PLI for Opus, no
 *   bandwidth estimation, and forwarding does not go through werift's senders whose statistics
 *   receiver reports update), and werift spent a cipher, an HMAC and a parse on each: with 300
 *   listeners reporting every second, about 4 % of a core whether anyone talked or not.
 * Everything else (media, other STUN, DTLS) goes on to werift unchanged. Safe to call again after
 * an ICE restart: sockets already taken over are skipped.
 */
export function interceptDatagrams(connection: IceConnectionShape): void {
  const agent = connection as unknown as Partial<BindingAgent>;
  if (
    typeof agent.localUsername !== 'string' ||
    typeof agent.localPassword !== 'string' ||
    typeof agent.remoteUsername !== 'string' ||
    typeof agent.iceControlling !== 'boolean'
  )
    return;
  const responder = new BindingResponder(agent as BindingAgent);
  for (const protocol of connection.protocols ?? []) {
    const received = protocol.datagramReceived;
    const socket = protocol.transport?.socket;
    if (answered.has(protocol) || typeof received !== 'function' || !socket) continue;
    answered.add(protocol);
    protocol.datagramReceived = (data, addr) => {
      if (isRtcp(data)) return;
      // A binding request starts 0x00 0x01; media never does.
      if (data[0] === 0 && data[1] === 1) {
        const remote = connection.nominated?.remoteCandidate;
        if (
          connection.nominated?.protocol === protocol &&
          remote?.host === addr[0] &&
          remote.port === addr[1] &&
          protocol.transport?.closed === false
        ) {
          const response = responder.answer(data, addr[0], addr[1]);
          if (response) {
            socket.send(response, addr[1], addr[0]);
            return;
          }
        }
      }
      received.call(protocol, data, addr);
    };
  }
}

/** RTP version 2 with a packet type of 192–223: RTCP, told apart from RTP as RFC 5761 §4 does. */
export function isRtcp(data: Buffer): boolean {
  const type = data[1] ?? 0;
  return data.length >= 8 && ((data[0] ?? 0) & 0xc0) === 0x80 && type >= 192 && type <= 223;
}
