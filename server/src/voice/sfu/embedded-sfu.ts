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

/**
 * Real clients send a handful of messages per negotiation (an answer and their ICE candidates); a
 * socket far beyond this is broken or hostile.
 */
const SIGNAL_RATE = { perSecond: 50, burst: 200 };

/** Whether a participant whose token checked out may be in the room now, and admin-muted or not. */
/**
 * Walkie-talkie channels (issue 17): only the floor holder's audio is forwarded (nobody's while the
 * floor is free). Open channels have no floor: everyone not admin-muted is forwarded.
 */
export type SfuFloor = { walkie: boolean; holderId: string | null };

export type SfuAdmission =
  | {
      admitted: true;
      muted: boolean;
      floor?: SfuFloor;
      /** Users this user blocked or was blocked by: their audio must not pass either way. */
      blockedUserIds?: readonly string[];
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
  /** Ends the user's sessions in the room (kicked, blocked, left the channel). */
  disconnectUser(roomName: string, userId: string, reason: string): void;
  /** Ends every session in the room (channel deleted). */
  closeRoom(roomName: string): void;
  /** Ends the voice of a sign-in session that ended (logout, expiry). */
  disconnectSignInSession(signInSessionId: string): void;
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
  const mutedByRoom = new Map<string, Set<string>>();
  const malformedLog = new LogThrottle();
  const floodLog = new LogThrottle();
  const refusedLog = new LogThrottle();
  let closed = false;

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
      if (holderId) recordings.set(roomName, new TransmissionRecording(holderId));
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
    const admission: SfuAdmission = options.admit
      ? await options.admit(token)
      : { admitted: true, muted: false };
    if (closed || socket.readyState !== 1) return undefined;
    if (!admission.admitted) {
      logger.info({ identity: token.identity, reason: admission.reason }, 'sfu: join refused');
      refuse(socket, REFUSAL_CODES[admission.reason], admission.reason, admission.message);
      return undefined;
    }
    // The database's mute is the truth, also after a restart emptied the in-memory list.
    if (options.admit && admission.muted !== isMuted(token.roomName, token.userId))
      setPublisherMuted(token.roomName, token.userId, admission.muted);
    if (admission.floor) setFloor(token.roomName, admission.floor);
    if (message.type === 'join') return startSession(socket, token);
    const resumed = resumeSession(socket, token, message.sessionId);
    if (!resumed)
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
    disconnectUser(roomName, userId, reason) {
      const room = rooms.get(roomName);
      if (!room) return;
      for (const session of [...room.sessions.values()]) {
        if (session.userId === userId) endSession(session, VOICE_CLOSE_CODES.kicked, reason);
      }
    },
    disconnectSignInSession(signInSessionId) {
      for (const session of [...sessionsById.values()]) {
        if (session.signInSessionId === signInSessionId)
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
