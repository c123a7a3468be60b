import type { RTCIceServer, RTCPeerConnectionConfig } from 'werift';
import type { WebSocket } from 'ws';
import {
  VOICE_CLOSE_CODES,
  type ClientVoiceMessage,
} from '../../../../protocol/voice-signalling.js';
import type { BlockRelations } from './block-relations.js';
import type { ForwardingGate } from './forwarding-gate.js';
import type { SenderReports } from './sender-reports.js';
import type { SessionRegistry } from './session-registry.js';
import type { SfuEvents } from './sfu-events.js';
import type { SfuLogger } from './sfu-logger.js';
import type { SfuRoom } from './sfu-room.js';
import { SfuSession, type SfuToken } from './sfu-session.js';
import type { SfuAdmitted, SignallingHost } from './signalling-door.js';

export interface SessionLifecycleDeps {
  registry: SessionRegistry;
  gate: ForwardingGate;
  blocks: BlockRelations;
  events: SfuEvents;
  logger: SfuLogger;
  peer: {
    peerConfig: RTCPeerConnectionConfig;
    announcedIp: string | undefined;
    senderReports: SenderReports;
    /** How long a session survives a lost socket or failed ICE, waiting for resume. */
    graceMs: number;
  };
  /** ICE servers handed to the participant's browser in `joined`. */
  clientIceServers: (userId: string) => RTCIceServer[];
  /** The room, made when it is not there yet. */
  roomFor: (name: string) => SfuRoom;
  /** The admission's truth of the moment for the room: the user's admin mute and the floor. */
  applyRoomState: (token: SfuToken, admission: SfuAdmitted) => void;
  isClosed: () => boolean;
}

/**
 * What happens to a session once the door let it in: it starts (or resumes on a new socket),
 * the room learns of it, its messages drive its peer, and it ends once, telling the room.
 */
export class SessionLifecycle implements SignallingHost {
  constructor(private readonly deps: SessionLifecycleDeps) {}

  get closed(): boolean {
    return this.deps.isClosed();
  }

  join(socket: WebSocket, token: SfuToken, admission: SfuAdmitted): SfuSession {
    const { registry, events, logger } = this.deps;
    this.deps.applyRoomState(token, admission);
    const room = this.deps.roomFor(token.roomName);
    // Like LiveKit, a second connection with the same identity replaces the first.
    const previous = room.sessions.get(token.identity);
    if (previous) this.replace(previous);
    const session = new SfuSession(
      token,
      { ...this.deps.peer, logger },
      {
        onPublisherTrack: (s, track) =>
          s.setPublisherTrack(track, (rtp) => registry.room(s.roomName)?.forwardFrom(s, rtp)),
        onDead: (s, reason) => this.end(s, VOICE_CLOSE_CODES.sessionExpired, reason),
      },
    );
    registry.add(session);
    session.attachSocket(socket);
    session.sendJoined(
      [...room.sessions.values()],
      this.deps.clientIceServers(session.userId),
      false,
    );
    this.tellMutes(session, room);
    room.add(session);
    this.announceMuted(session, room);
    session.peer.start();
    events.emit('participantJoined', {
      roomName: session.roomName,
      identity: session.identity,
      userId: session.userId,
      connectionId: session.sessionId,
    });
    logger.info({ room: session.roomName, identity: session.identity }, 'sfu: participant joined');
    return this.applySessionState(session, admission);
  }

  resume(
    socket: WebSocket,
    token: SfuToken,
    sessionId: string,
    admission: SfuAdmitted,
  ): SfuSession | undefined {
    this.deps.applyRoomState(token, admission);
    const session = this.deps.registry.get(sessionId);
    if (!session || session.identity !== token.identity || session.roomName !== token.roomName)
      return undefined;
    const old = session.socket;
    if (old && old !== socket) old.close(VOICE_CLOSE_CODES.replaced, 'resumed on another socket');
    session.attachSocket(socket);
    session.sendJoined(
      this.deps.registry.inRoom(session.roomName),
      this.deps.clientIceServers(session.userId),
      true,
    );
    return this.applySessionState(session, admission);
  }

  replace(session: SfuSession): void {
    this.end(session, VOICE_CLOSE_CODES.replaced, 'replaced by a newer connection');
  }

  message(session: SfuSession, message: ClientVoiceMessage): void {
    const { logger } = this.deps;
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
        this.end(session, 1000, 'left');
        return;
      case 'join':
      case 'resume':
        logger.debug({ identity: session.identity }, 'sfu: second join on one socket dropped');
        return;
    }
  }

  socketClosed(session: SfuSession, socket: WebSocket, code: number): void {
    // A clean close is a leave; anything else may be a network drop the client resumes from.
    if (code === 1000 || code === 1001) this.end(session, code, 'socket closed');
    else session.detachSocket(socket);
  }

  /** Ends the session once: its socket closes, the room and the listeners of `on` learn it. */
  end(session: SfuSession, code: number, reason: string): void {
    const { registry, events, logger } = this.deps;
    if (!registry.remove(session)) return;
    session.close(code, reason);
    const room = registry.room(session.roomName);
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
    registry.dropRoomIfEmpty(session.roomName);
    if (!registry.hasSessions(session.userId)) this.deps.blocks.forget(session.userId);
  }

  /** Once the session exists (a session it replaced took the user's old relations with it). */
  private applySessionState(session: SfuSession, admission: SfuAdmitted): SfuSession {
    if (admission.blockedUserIds) this.deps.blocks.set(session.userId, admission.blockedUserIds);
    if (admission.signInExpiresAt !== undefined)
      this.deps.registry.expiresAt(session, admission.signInExpiresAt);
    return session;
  }

  /** Tells a newcomer who in the room is admin-muted. */
  private tellMutes(session: SfuSession, room: SfuRoom): void {
    for (const other of room.sessions.values())
      if (this.deps.gate.isMuted(room.name, other.userId))
        session.send({
          type: 'publisher_muted',
          identity: other.identity,
          userId: other.userId,
          muted: true,
        });
  }

  /** Muted from the start: the others learn it (there is no audio of it to fade out). */
  private announceMuted(session: SfuSession, room: SfuRoom): void {
    if (!this.deps.gate.isMuted(room.name, session.userId)) return;
    const { identity, userId } = session;
    for (const other of room.sessions.values())
      if (other !== session) other.send({ type: 'publisher_muted', identity, userId, muted: true });
  }
}
