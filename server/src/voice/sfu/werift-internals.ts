import type { Socket } from 'node:dgram';
import { isIP } from 'node:net';
import {
  ProtectionProfileAeadAes128Gcm,
  ProtectionProfileAes128CmHmacSha1_80,
  type RTCDtlsTransport,
  type RTCPeerConnection,
  type RTCRtpSender,
  type RtcpPacket,
} from 'werift';
import { BindingResponder, type BindingAgent } from './binding-responder.js';
import { DatagramBatch } from './datagram-batch.js';
import { armConsent, disarmConsent, readOffLoop } from './native/receive-thread.js';
import type { SrtpSessionKeys } from './srtp/srtp-aes-cm.js';
import { TokenBucket } from './token-bucket.js';

/**
 * Every werift 0.24 internal the SFU reads, writes or wraps, in one place: the one file to check on
 * a werift upgrade. The negotiated SRTP session keys, the nominated ICE pair's UDP socket, the SRTP
 * profile preference, a sender's report counters, the ICE agent's credentials and sockets (consent
 * answers), and the ICE-restart gap. Each accessor checks the shape it expects and
 * answers `undefined` otherwise, so a werift upgrade that moves them makes forwarding fall back to
 * werift's own (slower) sender instead of breaking; the SFU counts those packets
 * (`chirp_sfu_slow_path_packets_total`) and the integration tests fail when any is sent.
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
  /** ICE-TCP (werift's TcpPassiveProtocol): each RFC 4571 frame of the peer's TCP stream. */
  handleFrame?: (data: Buffer, addr: [string, number]) => void;
}

interface NominatedPairShape {
  protocol?: StunProtocolShape;
  remoteCandidate?: { host: string; port: number };
}

/** werift's ICE `Connection` as the SFU uses it; other files only pass it around. */
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

/**
 * The DTLS transport of a sender: werift types it as always there, but it is set only once the
 * sender's m-line is negotiated.
 */
export function senderTransport(sender: RTCRtpSender): RTCDtlsTransport | undefined {
  return sender.dtlsTransport;
}

/** The outgoing SRTP context, to notice when a new DTLS session replaced it. */
export function localSrtpContext(transport: RTCDtlsTransport): object | undefined {
  return shape(transport).srtp?.localContext;
}

/** The outgoing session keys when the negotiated profile is AES-CM with HMAC-SHA1-80. */
export function aesCmSendKeys(transport: RTCDtlsTransport): SrtpSessionKeys | undefined {
  return aesCmContextKeys(shape(transport).srtp?.localContext);
}

/** The session keys of one of werift's SRTP contexts (`SrtpSession.localContext`) when AES-CM. */
export function aesCmContextKeys(srtpContext: unknown): SrtpSessionKeys | undefined {
  const context = srtpContext as LocalContextShape | undefined;
  const cipher = context?.cipher;
  if (context?.profile !== ProtectionProfileAes128CmHmacSha1_80 || !cipher) return undefined;
  const { srtpSessionKey: key, srtpSessionSalt: salt, srtpSessionAuthTag: authKey } = cipher;
  if (key?.length !== 16 || salt?.length !== 14 || authKey?.length !== 20) return undefined;
  return { key, salt, authKey };
}

/** The ICE connection under a DTLS transport, for `IceSendRoute`. */
export function iceConnection(transport: RTCDtlsTransport): IceConnectionShape | undefined {
  const connection = shape(transport).iceTransport?.connection;
  return typeof connection?.send === 'function' ? connection : undefined;
}

export interface UdpRoute {
  transport: UdpTransportShape;
  socket: Socket;
  host: string;
  port: number;
  /** The destination for the native send (`DatagramBatch.socketAddress`), when on. */
  address?: Buffer;
}

/**
 * The UDP socket and address of a nominated pair; undefined for TCP and TURN pairs and for remote
 * names that need resolving, which keep going through werift.
 */
function udpRoute(pair: NominatedPairShape): UdpRoute | undefined {
  const transport = pair.protocol?.transport;
  const remote = pair.remoteCandidate;
  if (transport?.type !== 'udp' || !transport.socket || !remote || !isIP(remote.host))
    return undefined;
  return { transport, socket: transport.socket, host: remote.host, port: remote.port };
}

/** How `IceSendRoute.send` sent a packet: queued for the pair's UDP socket, or through werift. */
export type IceSendWay = 'udp' | 'werift';

/**
 * Where one ICE connection's forwarded packets go: the nominated pair's UDP socket, read once per
 * pair, or werift's ICE connection for TCP and TURN pairs.
 */
export class IceSendRoute {
  private pair: NominatedPairShape | undefined;
  private route: UdpRoute | undefined;

  constructor(private readonly connection: IceConnectionShape) {}

  /** False while werift would not send either (consent to send lost). */
  canSend(): boolean {
    const connection = this.connection;
    return !connection.canSendApplicationData || connection.canSendApplicationData();
  }

  /**
   * The nominated pair's UDP route (its `address` from `batch`), 'werift' for a TCP or TURN pair,
   * or undefined when nothing can be sent: no pair nominated yet, or werift closed its socket.
   */
  destination(batch: DatagramBatch): UdpRoute | 'werift' | undefined {
    const pair = this.connection.nominated;
    if (!pair) return undefined;
    if (pair !== this.pair) {
      this.pair = pair;
      this.route = udpRoute(pair);
      if (this.route) this.route.address = batch.socketAddress(this.route.host, this.route.port);
    }
    const route = this.route;
    if (!route) return 'werift';
    return route.transport.closed ? undefined : route;
  }

  /** Hands a datagram to werift's ICE connection (TCP and TURN pairs); a failure is a loss. */
  sendThroughWerift(packet: Buffer): void {
    this.connection.send(packet).catch(() => undefined);
  }

  /**
   * Sends one SRTP packet: queued on `batch` for the nominated pair's UDP socket, or handed to
   * werift's ICE connection when the pair is not plain UDP. Undefined when nothing was sent.
   */
  send(packet: Buffer, batch: DatagramBatch): IceSendWay | undefined {
    const route = this.destination(batch);
    if (!route) return undefined;
    if (route === 'werift') {
      this.sendThroughWerift(packet);
      return 'werift';
    }
    batch.add(route.socket, packet, route.port, route.host, route.address);
    return 'udp';
  }
}

/**
 * The fields of werift's `RTCRtpSender` (private in its types) that RTCP sender reports read and
 * set. Forwarding bypasses werift's sender, so the SFU keeps them itself: werift still answers
 * the listener's receiver reports (round-trip time) from `lastSRtimestamp`/`lastSentSRTimestamp`.
 */
export interface ReportingSender {
  readonly ssrc: number;
  readonly cname?: string;
  readonly stopped?: boolean;
  packetCount: number;
  octetCount: number;
  rtpTimestamp: number;
  ntpTimestamp: bigint;
  lastSRtimestamp?: number;
  lastSentSRTimestamp?: number;
  readonly dtlsTransport: { state: string; sendRtcp(packets: RtcpPacket[]): Promise<unknown> };
}

/**
 * The sender's report fields, or undefined when werift no longer has them (no reports then). Its
 * `dtlsTransport` is public, set once negotiated.
 */
export function reportingSender(sender: RTCRtpSender): ReportingSender | undefined {
  const fields = sender as unknown as Partial<ReportingSender>;
  return typeof fields.packetCount === 'number' &&
    typeof fields.octetCount === 'number' &&
    typeof fields.rtpTimestamp === 'number' &&
    typeof fields.ntpTimestamp === 'bigint'
    ? (fields as ReportingSender)
    : undefined;
}

/**
 * werift 0.24 resets its ICE agent on an ICE-restart offer, but its connect step skips ICE when
 * DTLS is still up, so the new checks never start and media stops. This starts them; DTLS and
 * SRTP carry on over the new candidate pair. Call it once the restart's answer is applied.
 */
export function startIceChecksAfterRestart(
  pc: RTCPeerConnection,
  onError: (error: unknown) => void,
): void {
  for (const transport of pc.iceTransports) {
    if (transport.state === 'closed' || transport.connection.nominated) continue;
    // Not awaited: the checks take as long as the network needs, and offers must not queue behind them.
    transport.start().catch(onError);
  }
}

/**
 * Consent answers leave as forwarded packets do (`DatagramBatch`): natively when the SFU's addon is
 * built, else through the socket's handle, never through `socket.send`'s address lookup. An idle
 * member's browser checks every few seconds, and these answers were a third of an idle server's CPU.
 */
const consentAnswers = new DatagramBatch();
/** The native destination of each nominated remote candidate, made at its first answer. */
const consentAddresses = new WeakMap<object, Buffer | undefined>();
const answered = new WeakSet<StunProtocolShape>();

/**
 * What one peer's connection may send the SFU, in datagrams of any kind, before werift spends a
 * decryption and an HMAC check on each: a browser sends 50–100 RTP packets a second, a few RTCP
 * reports and NACKs, and a consent check every few seconds. A hostile client flooding its own
 * authenticated RTCP (or anything else) is held to this; the rest is dropped unread.
 */
export const PEER_DATAGRAM_LIMITS = { perSecond: 300, burst: 300 } as const;
const budgets = new WeakMap<IceConnectionShape, TokenBucket>();

/**
 * Puts the SFU in front of werift on each UDP socket of the peer's connections, once it is connected:
 * - the socket is read by the addon's receive thread when it is built (`readOffLoop`, decision
 *   057), which hands back as `'message'` events all it does not answer itself;
 * - a routine consent check on the nominated pair is answered by a `BindingResponder`, and the
 *   receive thread is armed to answer the socket's next ones without waking the event loop;
 * - RTCP from the browser goes on to werift: its NACKs are how a forwarder learns what a listener
 *   lost (decision 049's resends, and RED redundancy only for listeners that lose packets). It was
 *   dropped unread here before (werift spends a cipher, an HMAC and a parse on each report: about
 *   4 % of a core with 300 listeners reporting every second), which silently disabled both; reading
 *   only the NACKs with the listener's SRTCP keys in this place would win that back.
 * Everything else (media, other STUN, DTLS) goes on to werift unchanged, within the peer's datagram
 * budget (`PEER_DATAGRAM_LIMITS`); a flood past it is dropped here. Safe to call again after
 * an ICE restart: sockets already taken over are skipped.
 */
export function interceptDatagrams(pc: RTCPeerConnection): void {
  for (const transport of pc.dtlsTransports) {
    const connection = iceConnection(transport);
    if (connection) interceptConnection(connection);
  }
}

function interceptConnection(connection: IceConnectionShape): void {
  const agent = connection as unknown as Partial<BindingAgent>;
  if (
    typeof agent.localUsername !== 'string' ||
    typeof agent.localPassword !== 'string' ||
    typeof agent.remoteUsername !== 'string' ||
    typeof agent.iceControlling !== 'boolean'
  )
    return;
  const iceAgent = agent as BindingAgent;
  const responder = new BindingResponder(iceAgent);
  // One budget per connection, kept when an ICE restart brings new sockets.
  const budget =
    budgets.get(connection) ??
    new TokenBucket(PEER_DATAGRAM_LIMITS.perSecond, PEER_DATAGRAM_LIMITS.burst);
  budgets.set(connection, budget);
  for (const protocol of connection.protocols ?? []) {
    if (answered.has(protocol)) continue;
    const frame = protocol.handleFrame;
    if (typeof frame === 'function' && !protocol.transport?.socket) {
      // ICE-TCP: the same budget for the frames of the peer's TCP stream (each would be decrypted
      // like a datagram); consent checks there stay with werift.
      answered.add(protocol);
      protocol.handleFrame = (data, addr) => {
        if (budget.admit(1, Date.now())) frame.call(protocol, data, addr);
      };
      continue;
    }
    const received = protocol.datagramReceived;
    const socket = protocol.transport?.socket;
    if (typeof received !== 'function' || !socket) continue;
    answered.add(protocol);
    const offLoop = readOffLoop(socket);
    protocol.datagramReceived = (data, addr) => {
      if (!budget.admit(1, Date.now())) return;
      const armed = armedSockets.get(socket);
      if (armed && !armed.holds(connection, iceAgent)) {
        disarmConsent(socket);
        armedSockets.delete(socket);
      }
      // A binding request starts 0x00 0x01; media never does.
      if (data[0] === 0 && data[1] === 1) {
        const nominated = connection.nominated;
        const remote = nominated?.remoteCandidate;
        if (
          nominated?.protocol === protocol &&
          remote?.host === addr[0] &&
          remote.port === addr[1] &&
          protocol.transport?.closed === false
        ) {
          const response = responder.answer(data, addr[0], addr[1]);
          if (response) {
            let address = consentAddresses.get(remote);
            if (!consentAddresses.has(remote)) {
              address = consentAnswers.socketAddress(remote.host, remote.port);
              consentAddresses.set(remote, address);
            }
            consentAnswers.add(socket, response, remote.port, remote.host, address);
            if (offLoop && address && !armedSockets.has(socket))
              armOffLoop(socket, nominated, iceAgent, address);
            return;
          }
        }
      }
      received.call(protocol, data, addr);
    };
  }
}

/**
 * What a socket's receive thread was armed with: the pair and credentials it answers for. Checked
 * on every datagram that still comes to JavaScript; a new nomination or new credentials (an ICE
 * restart) disarm it, and the next check answered here arms it again.
 */
class ArmedConsent {
  constructor(
    private readonly pair: NominatedPairShape,
    private readonly localUsername: string,
    private readonly remoteUsername: string,
    private readonly localPassword: string,
  ) {}

  holds(connection: IceConnectionShape, agent: BindingAgent): boolean {
    return (
      connection.nominated === this.pair &&
      agent.localUsername === this.localUsername &&
      agent.remoteUsername === this.remoteUsername &&
      agent.localPassword === this.localPassword
    );
  }
}

const armedSockets = new WeakMap<Socket, ArmedConsent>();

function armOffLoop(
  socket: Socket,
  pair: NominatedPairShape,
  agent: BindingAgent,
  remote: Buffer,
): void {
  const { localUsername, remoteUsername, localPassword, iceControlling } = agent;
  const armed = armConsent(socket, {
    remote,
    username: Buffer.from(`${localUsername}:${remoteUsername}`, 'utf8'),
    password: Buffer.from(localPassword, 'utf8'),
    controlling: iceControlling,
  });
  if (armed)
    armedSockets.set(socket, new ArmedConsent(pair, localUsername, remoteUsername, localPassword));
}

/**
 * Takes consent answering back from the receive thread on every socket of the peer (before an ICE
 * restart changes the credentials): until a check is answered here again, werift and the SFU see
 * them all.
 */
export function disarmConsentAnswers(pc: RTCPeerConnection): void {
  for (const transport of pc.dtlsTransports) {
    for (const protocol of iceConnection(transport)?.protocols ?? []) {
      const socket = protocol.transport?.socket;
      if (socket && armedSockets.has(socket)) {
        disarmConsent(socket);
        armedSockets.delete(socket);
      }
    }
  }
}

/**
 * How often the server's end of the placeholder data channel's SCTP association checks its path:
 * once an hour instead of werift's 30 s. The channel carries nothing (it exists so the first offer
 * has something to negotiate), dead peers are found by their signalling socket, and 500 idle
 * peers' heartbeats woke the event loop ~17 times a second, each an SCTP chunk encrypted for DTLS.
 * The browser's own heartbeats are still answered.
 */
export const SCTP_HEARTBEAT_SECONDS = 3600;

/** Slows the server's SCTP heartbeats on the peer's association (`SCTP_HEARTBEAT_SECONDS`). */
export function quietSctpHeartbeats(pc: RTCPeerConnection): void {
  const transport = pc.sctpTransport as unknown as {
    sctp?: { setHeartbeatInterval?: (seconds: number) => void; heartbeatInterval?: number };
  } | null;
  const sctp = transport?.sctp;
  if (
    typeof sctp?.setHeartbeatInterval === 'function' &&
    sctp.heartbeatInterval !== SCTP_HEARTBEAT_SECONDS
  )
    sctp.setHeartbeatInterval(SCTP_HEARTBEAT_SECONDS);
}

/** RTP version 2 with a packet type of 192–223: RTCP, told apart from RTP as RFC 5761 §4 does. */
export function isRtcp(data: Buffer): boolean {
  const type = data[1] ?? 0;
  return data.length >= 8 && ((data[0] ?? 0) & 0xc0) === 0x80 && type >= 192 && type <= 223;
}
