import type { RTCIceServer, RtpPacket } from 'werift';
import type { WebSocket } from 'ws';
import { VOICE_CLOSE_CODES } from '../../../../protocol/voice-signalling.js';
import { BlockRelations } from './block-relations.js';
import { ForwardingGate, type SfuFloor } from './forwarding-gate.js';
import { sfuPeerConfig, type SfuNetworkOptions } from './peer-config.js';
import { SenderReports } from './sender-reports.js';
import { SessionRegistry } from './session-registry.js';
import { SfuCounters, type SfuTotals } from './sfu-counters.js';
import { SfuEvents, type SfuEventMap } from './sfu-events.js';
import type { SfuLogger } from './sfu-logger.js';
import { nativeDatagrams } from './native/native-datagrams.js';
import { threadConsentAnswers } from './native/receive-thread.js';
import { PACKET_SILENCE_MS, SfuRoom } from './sfu-room.js';
import { SessionLifecycle } from './session-lifecycle.js';
import type { SfuSession, SfuToken } from './sfu-session.js';
import { SignallingDoor, type SfuAdmission, type SfuAdmitted } from './signalling-door.js';
import { SilenceSweep } from './silence-sweep.js';

// The engine's public face: the rest of the server imports the SFU from this module only.
export type { SfuFloor } from './forwarding-gate.js';
export type { SfuAdmission } from './signalling-door.js';
export type { SfuToken } from './sfu-session.js';
export type {
  SfuConnectionEvent,
  SfuEventMap,
  SfuFloorEvent,
  SfuForwardedPacket,
  SfuParticipantEvent,
  SfuParticipantLeftEvent,
  SfuSpeakingEvent,
} from './sfu-events.js';
export type { SfuLogger } from './sfu-logger.js';
export { MAX_SESSIONS_PER_USER } from './session-registry.js';

/** How often voice of expired sign-in sessions is looked for (also voice no socket watches). */
const SIGN_IN_EXPIRY_CHECK_MS = 500;

export interface EmbeddedSfuOptions<
  T extends SfuToken = SfuToken,
> extends Partial<SfuNetworkOptions> {
  /** Checks a voice token's signature and claims; throws for anything forged or expired. */
  verifyToken: (token: string) => Promise<T>;
  /**
   * Asked at every join and resume, after the token checked out: the token says what was true when
   * it was minted (up to 10 minutes ago), the admission what is true now — membership, admin mute,
   * the session, the allowance. Everyone is admitted unmuted when omitted (a standalone SFU).
   */
  admit?: (token: T) => Promise<SfuAdmission>;
  logger: SfuLogger;
  /** How long a session survives a lost socket or failed ICE, waiting for resume (default 20 s). */
  graceMs?: number;
  /** How long a new socket may stay silent before its join message (default 10 s). */
  joinTimeoutMs?: number;
  /** ICE servers handed to a participant's browser (TURN credentials are per user); `iceServers` by default. */
  clientIceServers?: (userId: string) => RTCIceServer[];
}

export interface EmbeddedSfu {
  /** Takes over an accepted `/rtc` WebSocket; the first message must be `join` or `resume`. */
  handleSocket(socket: WebSocket, request?: { ip?: string }): void;
  /** Admin mute: stops (or resumes) forwarding every session of the user in the room at once. */
  setPublisherMuted(roomName: string, userId: string, muted: boolean): void;
  /** Walkie-talkie floor: from now on only the holder is forwarded (see SfuFloor). */
  setFloor(roomName: string, floor: SfuFloor): void;
  /**
   * A block between two users was made or removed: from the next packet on, neither one's audio
   * is forwarded to the other in any room (or both are again).
   */
  blockChanged(blockerId: string, blockedId: string, blocked: boolean): void;
  /** Ends the user's sessions in the room (kicked, blocked, left the channel). */
  disconnectUser(roomName: string, userId: string, reason: string): void;
  /** Ends every session in the room (channel deleted). */
  closeRoom(roomName: string): void;
  /** Ends the voice of a sign-in session that ended (logout, expiry). */
  disconnectSignInSession(signInSessionId: string): void;
  /**
   * Ends the user's sessions in every room, but those of the sign-in session `except` (the user's
   * sessions all ended: password change or reset, account deleted).
   */
  disconnectSignedOutUser(userId: string, except?: string): void;
  on<K extends keyof SfuEventMap>(name: K, listener: (event: SfuEventMap[K]) => void): () => void;
  /** The ids of every connection this SFU holds now (for usage's last-seen times). */
  connectionIds(): string[];
  /** Rooms, participants and media totals now, for `/metrics`. */
  stats(): { rooms: number; participants: number } & SfuTotals;
  /** Snapshot of who is in a room, for presence reconciliation and tests. */
  participants(roomName: string): { identity: string; userId: string; name: string }[];
  close(): void;
}

/**
 * The built-in SFU: the `/rtc` door (`SignallingDoor`) lets sessions in, the registry
 * (`SessionRegistry`) knows them by room and user, and each room forwards what the gate
 * (`ForwardingGate`: admin mute and floor) lets through to the listeners no block keeps apart.
 * What it decides, it tells through `on` (joins, leaves, speaking, the floor, forwarded packets).
 */
export function createEmbeddedSfu<T extends SfuToken>(options: EmbeddedSfuOptions<T>): EmbeddedSfu {
  const { logger } = options;
  const graceMs = options.graceMs ?? 20_000;
  const native = nativeDatagrams() !== undefined;
  logger.info(
    { native },
    native
      ? 'sfu: forwarded packets are encrypted and sent, and the ICE sockets read, by the native addon'
      : 'sfu: forwarded packets are encrypted and sent in JavaScript (no native addon built, or SFU_NATIVE=off)',
  );
  const peerConfig = sfuPeerConfig({
    iceServers: options.iceServers ?? [],
    portRange: options.portRange,
    announcedIp: options.announcedIp,
    iceTcp: options.iceTcp,
    additionalHostAddresses: options.additionalHostAddresses,
  });
  const events = new SfuEvents((error) =>
    logger.error({ err: error }, 'sfu: event listener threw'),
  );
  const counters = new SfuCounters();
  const silenceSweep = new SilenceSweep(PACKET_SILENCE_MS / 2);
  const senderReports = new SenderReports((error) =>
    logger.debug({ err: error }, 'sfu: sender report not sent'),
  );
  const registry = new SessionRegistry();
  const gate = new ForwardingGate();
  const blocks = new BlockRelations();
  let closed = false;
  const expiryTimer = setInterval(() => {
    for (const session of registry.expired(Date.now()))
      endSession(session, VOICE_CLOSE_CODES.unauthorized, 'sign-in expired');
  }, SIGN_IN_EXPIRY_CHECK_MS);
  expiryTimer.unref();

  const tap = (publisher: SfuSession, rtp: RtpPacket) => {
    if (!events.has('packetForwarded')) return;
    events.emit('packetForwarded', {
      roomName: publisher.roomName,
      userId: publisher.userId,
      ssrc: rtp.header.ssrc,
      timestamp: rtp.header.timestamp,
      payload: rtp.payload,
    });
  };

  const roomFor = (name: string) =>
    registry.roomOr(
      name,
      () =>
        new SfuRoom(
          name,
          (userId) => gate.isHeld(name, userId),
          events,
          counters,
          silenceSweep,
          (userId) => blocks.of(userId),
          tap,
        ),
    );

  function setFloor(roomName: string, floor: SfuFloor): void {
    const users = registry.inRoom(roomName).map((session) => session.userId);
    const change = gate.setFloor(roomName, floor, users);
    if (change.holderChanged)
      events.emit('floorChanged', {
        roomName,
        holderId: change.holderId,
        expiresAt: change.holderId ? (floor.expiresAt ?? null) : null,
      });
    // Whoever may no longer be heard falls silent at once, as after an admin mute.
    const room = registry.room(roomName);
    for (const userId of change.silenced) room?.floorLost(userId);
  }

  function setPublisherMuted(roomName: string, userId: string, muted: boolean): void {
    gate.setMuted(roomName, userId, muted);
    registry.room(roomName)?.publisherMuted(userId, muted);
  }

  /** The admission is the truth of the moment: the database's mute (also after a restart) and floor. */
  function applyRoomState(token: SfuToken, admission: SfuAdmitted): void {
    if (options.admit && admission.muted !== gate.isMuted(token.roomName, token.userId))
      setPublisherMuted(token.roomName, token.userId, admission.muted);
    if (admission.floor) setFloor(token.roomName, admission.floor);
  }

  const sessions = new SessionLifecycle({
    registry,
    gate,
    blocks,
    events,
    logger,
    peer: { peerConfig, announcedIp: options.announcedIp, senderReports, graceMs },
    clientIceServers: (userId) => options.clientIceServers?.(userId) ?? options.iceServers ?? [],
    roomFor,
    applyRoomState,
    isClosed: () => closed,
  });
  const endSession = (session: SfuSession, code: number, reason: string) =>
    sessions.end(session, code, reason);

  const door = new SignallingDoor<T>({
    verifyToken: options.verifyToken,
    admit: options.admit,
    logger,
    joinTimeoutMs: options.joinTimeoutMs ?? 10_000,
    registry,
    host: sessions,
  });

  return {
    handleSocket: (socket, request) => door.handleSocket(socket, request),
    setPublisherMuted,
    setFloor,
    blockChanged: (blockerId, blockedId, blocked) =>
      blocks.changed(blockerId, blockedId, blocked, (userId) => registry.hasSessions(userId)),
    disconnectUser(roomName, userId, reason) {
      for (const session of registry.inRoom(roomName))
        if (session.userId === userId) endSession(session, VOICE_CLOSE_CODES.kicked, reason);
    },
    disconnectSignInSession(signInSessionId) {
      for (const session of registry.signInEnded(signInSessionId))
        endSession(session, VOICE_CLOSE_CODES.unauthorized, 'signed out');
    },
    disconnectSignedOutUser(userId, except) {
      for (const session of registry.signedOut(userId, except))
        endSession(session, VOICE_CLOSE_CODES.unauthorized, 'signed out');
    },
    closeRoom(roomName) {
      for (const session of registry.inRoom(roomName))
        endSession(session, VOICE_CLOSE_CODES.roomClosed, 'room closed');
      gate.forgetRoom(roomName);
      events.emit('roomClosed', { roomName });
    },
    on: (name, listener) => events.on(name, listener),
    connectionIds: () => registry.ids(),
    stats: () => ({
      rooms: registry.roomCount,
      participants: registry.size,
      ...counters.totals,
      consentAnswersOffLoop: threadConsentAnswers(),
    }),
    participants: (roomName) => registry.inRoom(roomName).map((s) => s.info),
    close() {
      closed = true;
      clearInterval(expiryTimer);
      for (const session of registry.all())
        endSession(session, VOICE_CLOSE_CODES.serverShutdown, 'server shutting down');
      silenceSweep.close();
      senderReports.close();
    },
  };
}
