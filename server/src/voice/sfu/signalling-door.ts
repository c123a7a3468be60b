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
import type { SfuFloor } from './forwarding-gate.js';
import { MAX_SESSIONS_PER_USER, type SessionRegistry } from './session-registry.js';
import type { SfuLogger } from './sfu-logger.js';
import type { SfuSession, SfuToken } from './sfu-session.js';

/**
 * Real clients send a handful of messages per negotiation (an answer and their ICE candidates); a
 * socket far beyond this is broken or hostile.
 */
const SIGNAL_RATE = { perSecond: 50, burst: 200 };

/** Whether a participant whose token checked out may be in the room now, and admin-muted or not. */
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
  | {
      admitted: false;
      reason: 'not_a_member' | 'session_ended' | 'over_limit' | 'blocked';
      message: string;
    };

export type SfuAdmitted = Extract<SfuAdmission, { admitted: true }>;

const REFUSAL_CODES = {
  not_a_member: VOICE_CLOSE_CODES.kicked,
  session_ended: VOICE_CLOSE_CODES.unauthorized,
  over_limit: VOICE_CLOSE_CODES.unauthorized,
  blocked: VOICE_CLOSE_CODES.kicked,
} as const;

/** What the door hands a socket over to once it may come in, and what it tells about it after. */
export interface SignallingHost {
  readonly closed: boolean;
  /** An admitted join: the session it starts (a session it replaces is already ended). */
  join(socket: WebSocket, token: SfuToken, admission: SfuAdmitted): SfuSession;
  /** An admitted resume: the session it takes over, or undefined when that session is gone. */
  resume(
    socket: WebSocket,
    token: SfuToken,
    sessionId: string,
    admission: SfuAdmitted,
  ): SfuSession | undefined;
  /** The session the user's newest join replaces, to stay within MAX_SESSIONS_PER_USER. */
  replace(session: SfuSession): void;
  /** A message on a socket that has its session. */
  message(session: SfuSession, message: ClientVoiceMessage): void;
  /** The socket of a session closed with `code`. */
  socketClosed(session: SfuSession, socket: WebSocket, code: number): void;
}

export interface SignallingDoorOptions<T extends SfuToken> {
  verifyToken: (token: string) => Promise<T>;
  /** Everyone is admitted unmuted when omitted (a standalone SFU). */
  admit?: (token: T) => Promise<SfuAdmission>;
  logger: SfuLogger;
  /** How long a new socket may stay silent before its join message. */
  joinTimeoutMs: number;
  registry: SessionRegistry;
  host: SignallingHost;
}

/** Refuses a socket: an `error` message the client can show, then the close code. */
export function refuse(socket: WebSocket, code: number, errorCode: string, message: string): void {
  if (socket.readyState === 1)
    socket.send(JSON.stringify({ type: 'error', code: errorCode, message }));
  socket.close(code, message.slice(0, 120));
}

/**
 * The `/rtc` door: each socket's messages are rate-limited and parsed; the first must be a `join`
 * or `resume` of this protocol version with a voice token that checks out, within the per-user
 * cap, admitted by `admit` (asked at every join and resume), and not revoked by a sign-in end heard
 * meanwhile. Then the socket is the session's, and its messages go to the host.
 */
export class SignallingDoor<T extends SfuToken> {
  private readonly malformedLog = new LogThrottle();
  private readonly floodLog = new LogThrottle();
  private readonly refusedLog = new LogThrottle();

  constructor(private readonly options: SignallingDoorOptions<T>) {}

  handleSocket(socket: WebSocket, request?: { ip?: string }): void {
    const { logger, host } = this.options;
    if (host.closed) {
      socket.close(VOICE_CLOSE_CODES.serverShutdown, 'server shutting down');
      return;
    }
    const ip = request?.ip ?? 'unknown';
    let session: SfuSession | undefined;
    let authenticating = false;
    const rateLimit = new TokenBucket(SIGNAL_RATE);
    const joinTimer = setTimeout(() => {
      if (!session)
        refuse(socket, VOICE_CLOSE_CODES.unauthorized, 'join_timeout', 'no join message');
    }, this.options.joinTimeoutMs);

    socket.on('message', (data, isBinary) => {
      if (!rateLimit.take()) {
        const take = this.floodLog.take(ip);
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
        const take = this.malformedLog.take(ip);
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
        host.message(session, message);
        return;
      }
      if (authenticating) return;
      authenticating = true;
      this.authenticate(socket, message, ip)
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
      if (session) host.socketClosed(session, socket, code);
    });
    socket.on('error', (error) => logger.debug({ err: error }, 'sfu: socket error'));
  }

  private async authenticate(
    socket: WebSocket,
    message: ClientVoiceMessage,
    ip: string,
  ): Promise<SfuSession | undefined> {
    const { logger, registry, host } = this.options;
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
    let token: T;
    try {
      token = await this.options.verifyToken(message.token);
    } catch (error) {
      const take = this.refusedLog.take(ip);
      if (take.log)
        logger.info({ err: error, ip, suppressed: take.suppressed }, 'sfu: voice token refused');
      refuse(socket, VOICE_CLOSE_CODES.unauthorized, 'unauthorized', 'invalid voice token');
      return undefined;
    }
    if (host.closed || socket.readyState !== 1) return undefined;
    const joining = message.type === 'join';
    if (joining && registry.fits(token.userId, token.roomName) === false) {
      this.refuseTooMany(socket, token);
      return undefined;
    }
    const pending = registry.beginAdmission(token, joining);
    let admission: SfuAdmission;
    try {
      admission = this.options.admit
        ? await this.options.admit(token)
        : { admitted: true, muted: false };
    } finally {
      pending.end();
    }
    if (host.closed || socket.readyState !== 1) return undefined;
    if (admission.admitted && pending.revoked) {
      logger.info(
        { identity: token.identity },
        'sfu: join refused: its sign-in session just ended',
      );
      refuse(socket, VOICE_CLOSE_CODES.unauthorized, 'session_ended', 'sign in again');
      return undefined;
    }
    if (!admission.admitted) {
      logger.info({ identity: token.identity, reason: admission.reason }, 'sfu: join refused');
      refuse(socket, REFUSAL_CODES[admission.reason], admission.reason, admission.message);
      return undefined;
    }
    if (message.type === 'join') {
      // Asked again now: other joins of the user may have started while this one was checked.
      const fits = registry.fits(token.userId, token.roomName);
      if (fits === false) {
        this.refuseTooMany(socket, token);
        return undefined;
      }
      if (fits !== true) host.replace(fits);
      return host.join(socket, token, admission);
    }
    const resumed = host.resume(socket, token, message.sessionId, admission);
    if (!resumed)
      refuse(
        socket,
        VOICE_CLOSE_CODES.sessionExpired,
        'session_expired',
        'session is gone; join again',
      );
    return resumed;
  }

  private refuseTooMany(socket: WebSocket, token: SfuToken): void {
    const take = this.refusedLog.take(token.userId);
    if (take.log)
      this.options.logger.info(
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
}

function rawText(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
