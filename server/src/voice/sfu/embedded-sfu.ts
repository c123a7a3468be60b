import type { RTCIceServer } from 'werift';
import type { WebSocket } from 'ws';
import {
  VOICE_CLOSE_CODES,
  VOICE_SIGNALLING_VERSION,
  clientVoiceMessageSchema,
  parseVoiceMessage,
  type ClientVoiceMessage,
} from '../../../../protocol/voice-signalling.js';
import { TokenBucket } from '../../limits/token-bucket.js';
import { LogThrottle } from '../../logging/log-throttle.js';
import type { VerifiedVoiceToken, VoiceTokenVerifierFn } from '../voice-token.js';
import { SfuCounters, type SfuTotals } from './sfu-counters.js';
import { SfuEvents, type SfuEventMap } from './sfu-events.js';
import type { SfuLogger } from './sfu-logger.js';
import { sfuPeerConfig, type SfuNetworkOptions } from './peer-config.js';
import { SenderReports } from './sender-reports.js';
import { PACKET_SILENCE_MS, SfuRoom } from './sfu-room.js';
import { SfuSession } from './sfu-session.js';
import { SilenceSweep } from './silence-sweep.js';
import { TransmissionRecording } from '../../transmissions/transmission-recording.js';
import { RecentSessionEnds } from '../../auth/recent-session-ends.js';

/**
 * Real clients send a handful of messages per negotiation (an answer and their ICE candidates); a
 * socket far beyond this is broken or hostile.
 */
const SIGNAL_RATE = { perSecond: 50, burst: 200 };
/** How often voice of expired sign-in sessions is looked for (also voice no socket watches). */
const SIGN_IN_EXPIRY_CHECK_MS = 500;

/**
 * Voice connections one user may hold at once, across rooms, counting joins still being checked:
 * one per device. Each costs UDP sockets, a usage row and an encryption per forwarded packet.
 */
export const MAX_SESSIONS_PER_USER = 4;

/** Whether a participant whose token checked out may be in the room now, and admin-muted or not. */
/**
 * Walkie-talkie channels (issue 17): only the floor holder's audio is forwarded (nobody's while the
 * floor is free). Open channels have no floor: everyone not admin-muted is forwarded.
 */
export type SfuFloor = {
  walkie: boolean;
  holderId: string | null;
  /** When the holder's hold ends at the latest (epoch ms): its recording keeps nothing after. */
  expiresAt?: number | null;
};

export type SfuAdmission =
  | {
      admitted: true;
      muted: boolean;
      floor?: SfuFloor;
      /** Users with a block between them and this user, either way: neither hears the other. */
      blockedUserIds?: readonly string[];
      /** When the sign-in session behind the token expires (ms): its voice ends then. */
      signInExpiresAt?: number;
    }
  | { admitted: false; reason: 'not_a_member' | 'session_ended' | 'over_limit'; message: string };

const REFUSAL_CODES = {
  not_a_member: VOICE_CLOSE_CODES.kicked,
  session_ended: VOICE_CLOSE_CODES.unauthorized,
  over_limit: VOICE_CLOSE_CODES.unauthorized,
} as const;

export interface EmbeddedSfuOptions extends Partial<SfuNetworkOptions> {
  verifyToken: VoiceTokenVerifierFn;
  /**
   * Asked at every join and resume, after the token checked out: the token says what was true when
   * it was minted (up to 10 minutes ago), the database what is true now — membership, admin mute,
   * the session, the allowance. Everyone is admitted unmuted when omitted (a standalone SFU).
   */
  admit?: (token: VerifiedVoiceToken) => Promise<SfuAdmission>;
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

export function createEmbeddedSfu(options: EmbeddedSfuOptions): EmbeddedSfu {
  const { logger } = options;
  const graceMs = options.graceMs ?? 20_000;
  const joinTimeoutMs = options.joinTimeoutMs ?? 10_000;
  const peerConfig = sfuPeerConfig({
    iceServers: options.iceServers ?? [],
    portRange: options.portRange,
    announcedIp: options.announcedIp,
    iceTcp: options.iceTcp,
    additionalHostAddresses: options.additionalHostAddresses,
  });
  const clientIceServers = (userId: string) =>
    options.clientIceServers?.(userId) ?? options.iceServers ?? [];
  const events = new SfuEvents((error) =>
    logger.error({ err: error }, 'sfu: event listener threw'),
  );
  const rooms = new Map<string, SfuRoom>();
  const counters = new SfuCounters();
  const silenceSweep = new SilenceSweep(PACKET_SILENCE_MS / 2);
  const senderReports = new SenderReports((error) =>
    logger.debug({ err: error }, 'sfu: sender report not sent'),
  );
  const sessionsById = new Map<string, SfuSession>();
  /** Joins of each user whose token checked out and whose admission is still being asked. */
  const pendingJoins = new Map<string, number>();
  const mutedByRoom = new Map<string, Set<string>>();
  const malformedLog = new LogThrottle();
  const floodLog = new LogThrottle();
  const refusedLog = new LogThrottle();
  let closed = false;
  /** Sessions whose sign-in session expires, and when (ms): looked at twice a second. */
  const signInExpiry = new Map<SfuSession, number>();
  const expiryTimer = setInterval(() => {
    const now = Date.now();
    for (const [session, expiresAt] of signInExpiry)
      if (expiresAt <= now) endSession(session, VOICE_CLOSE_CODES.unauthorized, 'sign-in expired');
  }, SIGN_IN_EXPIRY_CHECK_MS);
  expiryTimer.unref();
  /** Sign-in ends heard lately: a join admitted just before one is heard is refused all the same. */
  const signInEnds = new RecentSessionEnds();

  /** Walkie-talkie rooms only, by room name: who holds the floor (null: nobody). */
  const floorByRoom = new Map<string, { holderId: string | null }>();
  /** Walkie-talkie rooms whose floor is held: the holder's transmission being recorded. */
  const recordings = new Map<string, TransmissionRecording>();

  function finishRecording(roomName: string): void {
    const recording = recordings.get(roomName);
    if (!recording) return;
    recordings.delete(roomName);
    const transmission = recording.finish();
    if (!transmission) return;
    const heardBy = new Set<string>();
    for (const session of rooms.get(roomName)?.sessions.values() ?? [])
      if (session.userId !== transmission.speakerId) heardBy.add(session.userId);
    events.emit('transmissionRecorded', { roomName, transmission, heardBy: [...heardBy] });
  }

  /**
   * Who must not hear whom, both ways (a block either way): for each user with a session here,
   * the users whose audio they neither receive nor send. Learnt at each join from the admission
   * and kept current by `blockChanged`; forgotten with a user's last session.
   */
  const blockRelations = new Map<string, Set<string>>();

  function relate(a: string, b: string): void {
    for (const [one, other] of [
      [a, b],
      [b, a],
    ] as const) {
      let set = blockRelations.get(one);
      if (!set) blockRelations.set(one, (set = new Set()));
      set.add(other);
    }
  }

  function unrelate(a: string, b: string): void {
    for (const [one, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const set = blockRelations.get(one);
      set?.delete(other);
      if (set?.size === 0) blockRelations.delete(one);
    }
  }

  /** The admission's list is the database's truth of the moment for this user. */
  function setBlockRelations(userId: string, others: readonly string[]): void {
    for (const other of [...(blockRelations.get(userId) ?? [])])
      if (!others.includes(other)) unrelate(userId, other);
    for (const other of others) if (other !== userId) relate(userId, other);
  }

  const hasSessions = (userId: string) => {
    for (const session of sessionsById.values()) if (session.userId === userId) return true;
    return false;
  };

  /** The user's last session here ended: their relations are learnt again at their next join. */
  function forgetBlockRelations(userId: string): void {
    for (const other of [...(blockRelations.get(userId) ?? [])]) unrelate(userId, other);
  }

  function blockChanged(blockerId: string, blockedId: string, blocked: boolean): void {
    if (!blocked) unrelate(blockerId, blockedId);
    // Only users connected here need it; the others learn it at their join.
    else if (hasSessions(blockerId) || hasSessions(blockedId)) relate(blockerId, blockedId);
  }

  const isMuted = (roomName: string, userId: string) =>
    mutedByRoom.get(roomName)?.has(userId) ?? false;

  /** Not forwarded: admin-muted, or in a walkie-talkie room without the floor. */
  const isHeld = (roomName: string, userId: string) => {
    if (isMuted(roomName, userId)) return true;
    const floor = floorByRoom.get(roomName);
    return floor !== undefined && floor.holderId !== userId;
  };

  function setFloor(roomName: string, floor: SfuFloor): void {
    const before = floorByRoom.get(roomName);
    if (floor.walkie) floorByRoom.set(roomName, { holderId: floor.holderId });
    else floorByRoom.delete(roomName);
    // A transmission lasts while one holder keeps the floor (a join re-announces the same floor).
    const holderId = floor.walkie ? floor.holderId : null;
    if ((recordings.get(roomName)?.speakerId ?? null) !== holderId) {
      finishRecording(roomName);
      if (holderId) {
        const maxMs = floor.expiresAt ? floor.expiresAt - Date.now() : undefined;
        recordings.set(roomName, new TransmissionRecording(holderId, { maxMs }));
      }
    }
    const room = rooms.get(roomName);
    if (!room) return;
    // Whoever may no longer be heard falls silent at once, as after an admin mute.
    const lost = new Set<string>();
    if (floor.walkie && !before)
      for (const session of room.sessions.values()) lost.add(session.userId);
    if (before?.holderId) lost.add(before.holderId);
    for (const userId of lost) if (isHeld(roomName, userId)) room.floorLost(userId);
  }

  function setPublisherMuted(roomName: string, userId: string, muted: boolean): void {
    let set = mutedByRoom.get(roomName);
    if (muted) {
      if (!set) mutedByRoom.set(roomName, (set = new Set()));
      set.add(userId);
    } else {
      set?.delete(userId);
      if (set?.size === 0) mutedByRoom.delete(roomName);
    }
    rooms.get(roomName)?.publisherMuted(userId, muted);
  }

  function roomFor(name: string): SfuRoom {
    let room = rooms.get(name);
    if (!room) {
      room = new SfuRoom(
        name,
        (userId) => isHeld(name, userId),
        events,
        counters,
        silenceSweep,
        (userId) => blockRelations.get(userId),
        (s, rtp) => {
          const recording = recordings.get(name);
          if (recording?.speakerId === s.userId)
            recording.push(rtp.header.ssrc, rtp.header.timestamp, rtp.payload);
        },
      );
      rooms.set(name, room);
    }
    return room;
  }

  function endSession(session: SfuSession, code: number, reason: string): void {
    signInExpiry.delete(session);
    if (sessionsById.get(session.sessionId) !== session) return;
    sessionsById.delete(session.sessionId);
    session.close(code, reason);
    const room = rooms.get(session.roomName);
    if (room?.remove(session)) {
      events.emit('participantLeft', {
        roomName: session.roomName,
        identity: session.identity,
        userId: session.userId,
        connectionId: session.sessionId,
        reason,
      });
      logger.info(
        { room: session.roomName, identity: session.identity, reason },
        'sfu: participant left',
      );
    }
    if (room?.isEmpty) {
      room.dispose();
      rooms.delete(session.roomName);
    }
    if (!hasSessions(session.userId)) forgetBlockRelations(session.userId);
  }

  function startSession(socket: WebSocket, token: VerifiedVoiceToken): SfuSession {
    const room = roomFor(token.roomName);
    // Like LiveKit, a second connection with the same identity replaces the first.
    const previous = room.sessions.get(token.identity);
    if (previous)
      endSession(previous, VOICE_CLOSE_CODES.replaced, 'replaced by a newer connection');
    const session = new SfuSession(
      token,
      { peerConfig, announcedIp: options.announcedIp, logger, graceMs, senderReports },
      {
        onPublisherTrack: (s, track) =>
          s.setPublisherTrack(track, (rtp) => rooms.get(s.roomName)?.forwardFrom(s, rtp)),
        onDead: (s, reason) => endSession(s, VOICE_CLOSE_CODES.sessionExpired, reason),
      },
    );
    sessionsById.set(session.sessionId, session);
    session.attachSocket(socket);
    session.send({
      type: 'joined',
      version: VOICE_SIGNALLING_VERSION,
      sessionId: session.sessionId,
      roomName: session.roomName,
      self: session.info,
      participants: [...room.sessions.values()].map((s) => s.info),
      canPublish: session.canPublish,
      iceServers: clientIceServers(session.userId),
      resumed: false,
    });
    for (const other of room.sessions.values()) {
      if (isMuted(room.name, other.userId)) {
        session.send({
          type: 'publisher_muted',
          identity: other.identity,
          userId: other.userId,
          muted: true,
        });
      }
    }
    room.add(session);
    // Muted from the start: the others learn it (there is no audio of it to fade out).
    if (isMuted(room.name, session.userId)) {
      const { identity, userId } = session;
      for (const other of room.sessions.values())
        if (other !== session)
          other.send({ type: 'publisher_muted', identity, userId, muted: true });
    }
    session.peer.start();
    events.emit('participantJoined', {
      roomName: session.roomName,
      identity: session.identity,
      userId: session.userId,
      connectionId: session.sessionId,
    });
    logger.info({ room: session.roomName, identity: session.identity }, 'sfu: participant joined');
    return session;
  }

  function resumeSession(
    socket: WebSocket,
    token: VerifiedVoiceToken,
    sessionId: string,
  ): SfuSession | undefined {
    const session = sessionsById.get(sessionId);
    if (!session || session.identity !== token.identity || session.roomName !== token.roomName)
      return undefined;
    const old = session.socket;
    if (old && old !== socket) old.close(VOICE_CLOSE_CODES.replaced, 'resumed on another socket');
    session.attachSocket(socket);
    const room = rooms.get(session.roomName);
    session.send({
      type: 'joined',
      version: VOICE_SIGNALLING_VERSION,
      sessionId: session.sessionId,
      roomName: session.roomName,
      self: session.info,
      participants: room
        ? [...room.sessions.values()].filter((s) => s !== session).map((s) => s.info)
        : [],
      canPublish: session.canPublish,
      iceServers: clientIceServers(session.userId),
      resumed: true,
    });
    return session;
  }

  function handleSessionMessage(session: SfuSession, message: ClientVoiceMessage): void {
    switch (message.type) {
      case 'answer':
        session.peer.handleAnswer(message.negotiationId, message.sdp);
        return;
      case 'ice_candidate':
        session.peer.addIceCandidate(message.candidate).catch((error: unknown) => {
          logger.debug(
            { err: error, identity: session.identity },
            'sfu: bad ICE candidate dropped',
          );
        });
        return;
      case 'restart_ice':
        session.peer.restartIce();
        return;
      case 'leave':
        endSession(session, 1000, 'left');
        return;
      case 'join':
      case 'resume':
        logger.debug({ identity: session.identity }, 'sfu: second join on one socket dropped');
        return;
    }
  }

  /**
   * Whether one more connection of the user fits: yes; or the session it replaces (their oldest in
   * the same room, as a device that reconnects replaces its own); or no.
   */
  function roomForOneMore(userId: string, roomName: string): true | SfuSession | false {
    let used = pendingJoins.get(userId) ?? 0;
    if (used >= MAX_SESSIONS_PER_USER) return false;
    let oldestHere: SfuSession | undefined;
    // Insertion order: the oldest session first.
    for (const session of sessionsById.values()) {
      if (session.userId !== userId) continue;
      used++;
      if (session.roomName === roomName) oldestHere ??= session;
    }
    if (used < MAX_SESSIONS_PER_USER) return true;
    return oldestHere ?? false;
  }

  function refuseTooMany(socket: WebSocket, token: VerifiedVoiceToken): void {
    const take = refusedLog.take(token.userId);
    if (take.log)
      logger.info(
        { userId: token.userId, suppressed: take.suppressed },
        'sfu: join refused, too many voice connections',
      );
    refuse(
      socket,
      VOICE_CLOSE_CODES.tooManyConnections,
      'too_many_connections',
      `at most ${MAX_SESSIONS_PER_USER} voice connections at once; leave one first`,
    );
  }

  function refuse(socket: WebSocket, code: number, errorCode: string, message: string): void {
    if (socket.readyState === 1)
      socket.send(JSON.stringify({ type: 'error', code: errorCode, message }));
    socket.close(code, message.slice(0, 120));
  }

  async function authenticate(
    socket: WebSocket,
    message: ClientVoiceMessage,
    ip: string,
  ): Promise<SfuSession | undefined> {
    if (message.type !== 'join' && message.type !== 'resume') {
      refuse(
        socket,
        VOICE_CLOSE_CODES.badMessage,
        'bad_message',
        'first message must be join or resume',
      );
      return undefined;
    }
    if (message.version !== VOICE_SIGNALLING_VERSION) {
      refuse(
        socket,
        VOICE_CLOSE_CODES.unsupportedVersion,
        'unsupported_version',
        `server speaks version ${VOICE_SIGNALLING_VERSION}`,
      );
      return undefined;
    }
    let token: VerifiedVoiceToken;
    try {
      token = await options.verifyToken(message.token);
    } catch (error) {
      const take = refusedLog.take(ip);
      if (take.log)
        logger.info({ err: error, ip, suppressed: take.suppressed }, 'sfu: voice token refused');
      refuse(socket, VOICE_CLOSE_CODES.unauthorized, 'unauthorized', 'invalid voice token');
      return undefined;
    }
    if (closed || socket.readyState !== 1) return undefined;
    const joining = message.type === 'join';
    if (joining && roomForOneMore(token.userId, token.roomName) === false) {
      refuseTooMany(socket, token);
      return undefined;
    }
    const endsBefore = signInEnds.mark();
    let admission: SfuAdmission;
    if (joining) pendingJoins.set(token.userId, (pendingJoins.get(token.userId) ?? 0) + 1);
    try {
      admission = options.admit ? await options.admit(token) : { admitted: true, muted: false };
    } finally {
      if (joining) {
        const left = (pendingJoins.get(token.userId) ?? 1) - 1;
        if (left > 0) pendingJoins.set(token.userId, left);
        else pendingJoins.delete(token.userId);
      }
    }
    if (closed || socket.readyState !== 1) return undefined;
    if (admission.admitted && signInEnds.endedSince(endsBefore, token)) {
      logger.info({ identity: token.identity }, 'sfu: join refused: its sign-in session just ended');
      refuse(socket, VOICE_CLOSE_CODES.unauthorized, 'session_ended', 'sign in again');
      return undefined;
    }
    if (!admission.admitted) {
      logger.info({ identity: token.identity, reason: admission.reason }, 'sfu: join refused');
      refuse(socket, REFUSAL_CODES[admission.reason], admission.reason, admission.message);
      return undefined;
    }
    // The database's mute is the truth, also after a restart emptied the in-memory list.
    if (options.admit && admission.muted !== isMuted(token.roomName, token.userId))
      setPublisherMuted(token.roomName, token.userId, admission.muted);
    if (admission.floor) setFloor(token.roomName, admission.floor);
    // Once the session exists (a session it replaces takes the user's old relations with it).
    const applyBlocks = (session: SfuSession) => {
      if (admission.blockedUserIds) setBlockRelations(session.userId, admission.blockedUserIds);
      if (admission.signInExpiresAt !== undefined) signInExpiry.set(session, admission.signInExpiresAt);
      return session;
    };
    if (message.type === 'join') {
      // Asked again now: other joins of the user may have started while this one was checked.
      const fits = roomForOneMore(token.userId, token.roomName);
      if (fits === false) {
        refuseTooMany(socket, token);
        return undefined;
      }
      if (fits !== true)
        endSession(fits, VOICE_CLOSE_CODES.replaced, 'replaced by a newer connection');
      return applyBlocks(startSession(socket, token));
    }
    const resumed = resumeSession(socket, token, message.sessionId);
    if (resumed) applyBlocks(resumed);
    else
      refuse(
        socket,
        VOICE_CLOSE_CODES.sessionExpired,
        'session_expired',
        'session is gone; join again',
      );
    return resumed;
  }

  function handleSocket(socket: WebSocket, request?: { ip?: string }): void {
    if (closed) {
      socket.close(VOICE_CLOSE_CODES.serverShutdown, 'server shutting down');
      return;
    }
    let session: SfuSession | undefined;
    let authenticating = false;
    const rateLimit = new TokenBucket(SIGNAL_RATE);
    const joinTimer = setTimeout(() => {
      if (!session)
        refuse(socket, VOICE_CLOSE_CODES.unauthorized, 'join_timeout', 'no join message');
    }, joinTimeoutMs);

    socket.on('message', (data, isBinary) => {
      if (!rateLimit.take()) {
        const take = floodLog.take(request?.ip ?? 'unknown');
        if (take.log)
          logger.warn(
            { ip: request?.ip, suppressed: take.suppressed },
            'sfu: signalling flood, closing',
          );
        refuse(socket, VOICE_CLOSE_CODES.badMessage, 'flood', 'too many messages');
        return;
      }
      const message = isBinary
        ? undefined
        : parseVoiceMessage(clientVoiceMessageSchema, rawText(data));
      if (!message) {
        // Unauthenticated sockets are cheap to open: one line per address per minute, with a count.
        const take = malformedLog.take(request?.ip ?? 'unknown');
        if (take.log)
          logger.info(
            { ip: request?.ip, identity: session?.identity, suppressed: take.suppressed },
            'sfu: malformed signalling message dropped',
          );
        // Before a session exists there is nothing to keep: a bad first message ends the socket.
        if (!session && !authenticating)
          refuse(socket, VOICE_CLOSE_CODES.badMessage, 'bad_message', 'expected join or resume');
        return;
      }
      if (session) {
        handleSessionMessage(session, message);
        return;
      }
      if (authenticating) return;
      authenticating = true;
      authenticate(socket, message, request?.ip ?? 'unknown')
        .then((s) => {
          session = s;
          clearTimeout(joinTimer);
        })
        .catch((error: unknown) => {
          logger.error({ err: error }, 'sfu: join failed');
          refuse(socket, 1011, 'internal', 'join failed');
        })
        .finally(() => {
          authenticating = false;
        });
    });
    socket.on('close', (code) => {
      clearTimeout(joinTimer);
      if (!session) return;
      // A clean close is a leave; anything else may be a network drop the client resumes from.
      if (code === 1000 || code === 1001) endSession(session, code, 'socket closed');
      else session.detachSocket(socket);
    });
    socket.on('error', (error) => logger.debug({ err: error }, 'sfu: socket error'));
  }

  return {
    handleSocket,
    setPublisherMuted,
    setFloor,
    blockChanged,
    disconnectUser(roomName, userId, reason) {
      const room = rooms.get(roomName);
      if (!room) return;
      for (const session of [...room.sessions.values()]) {
        if (session.userId === userId) endSession(session, VOICE_CLOSE_CODES.kicked, reason);
      }
    },
    disconnectSignInSession(signInSessionId) {
      signInEnds.remember({ sessionId: signInSessionId });
      for (const session of [...sessionsById.values()]) {
        if (session.signInSessionId === signInSessionId)
          endSession(session, VOICE_CLOSE_CODES.unauthorized, 'signed out');
      }
    },
    disconnectSignedOutUser(userId, except) {
      signInEnds.remember({ userId, except });
      for (const session of [...sessionsById.values()]) {
        if (session.userId === userId && (except === undefined || session.signInSessionId !== except))
          endSession(session, VOICE_CLOSE_CODES.unauthorized, 'signed out');
      }
    },
    closeRoom(roomName) {
      const room = rooms.get(roomName);
      if (room)
        for (const session of [...room.sessions.values()])
          endSession(session, VOICE_CLOSE_CODES.roomClosed, 'room closed');
      mutedByRoom.delete(roomName);
      floorByRoom.delete(roomName);
      // The channel is gone: what was being said goes with it.
      recordings.delete(roomName);
    },
    on: (name, listener) => events.on(name, listener),
    connectionIds: () => [...sessionsById.keys()],
    stats: () => ({ rooms: rooms.size, participants: sessionsById.size, ...counters.totals }),
    participants(roomName) {
      return [...(rooms.get(roomName)?.sessions.values() ?? [])].map((s) => s.info);
    },
    close() {
      closed = true;
      clearInterval(expiryTimer);
      for (const session of [...sessionsById.values()])
        endSession(session, VOICE_CLOSE_CODES.serverShutdown, 'server shutting down');
      silenceSweep.close();
      senderReports.close();
    },
  };
}

function rawText(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
