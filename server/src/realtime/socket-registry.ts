import type { FastifyBaseLogger } from 'fastify';
import { WS_CLOSE_CODES } from '../../../protocol/sockets.js';
import { RecentSessionEnds } from '../auth/recent-session-ends.js';
import type { Bus } from './bus.js';
import type { ClientSocket } from './client-socket.js';
import {
  SOCKET_CONTROL_TOPIC,
  publishSessionControl,
  sessionControlSchema,
  type SessionControl,
  type SessionEnd,
} from './session-control.js';

/** Open `/ws` + `/ws/webrtc` sockets one user may hold on one instance (decision 016). */
export const MAX_SOCKETS_PER_USER = 20;
/** How often sockets of expired sessions are looked for: a session's end is felt within this. */
const EXPIRY_CHECK_MS = 500;

/** A socket as the registry knows it: whose session it rides on, and until when. */
export interface SessionSocket extends ClientSocket {
  /** Which socket route (`ws`, `webrtc`): account changes are pushed on `/ws` only. */
  readonly route: string;
  readonly sessionId: string;
  readonly sessionExpiresAt: number;
}

/** Told on every instance of every session end (after the instance's sockets of it were closed). */
type SessionEndedListener = (ended: SessionEnd) => void;

/** Options of a user's sessions ending together (see `session-control.ts`). */
export type UserEnd = Omit<Extract<SessionEnd, { kind: 'user_ended' }>, 'kind' | 'userId'>;

/**
 * This instance's open JSON sockets by user and by session. It caps sockets per user, and is the
 * one path by which the end of a sign-in session or of all a user's sessions (logout, expiry,
 * password change, account deletion, the admin command) and account changes reach open sockets —
 * and, through `onSessionEnded`, voice — within a second on every instance, through the bus.
 */
export class SocketRegistry {
  private readonly byUser = new Map<string, Set<SessionSocket>>();
  private readonly bySession = new Map<string, Set<SessionSocket>>();
  private readonly sessionEndedListeners = new Set<SessionEndedListener>();
  private readonly recentEnds = new RecentSessionEnds();
  private unsubscribe: (() => Promise<void>) | undefined;
  private readonly expiryTimer: NodeJS.Timeout;

  constructor(
    private readonly bus: Bus,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
  ) {
    this.expiryTimer = setInterval(() => this.closeExpired(), EXPIRY_CHECK_MS);
    this.expiryTimer.unref();
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.bus.subscribe(SOCKET_CONTROL_TOPIC, (message) => {
      const control = sessionControlSchema.safeParse(message);
      if (control.success) this.apply(control.data);
    });
  }

  /** Taken before a socket's session is read; see `endedSince`. */
  mark(): number {
    return this.recentEnds.mark();
  }

  /**
   * Whether the socket's session ended after `mark` (its upgrade read the session just before an
   * end was heard): such a socket is closed, not added.
   */
  endedSince(mark: number, socket: SessionSocket): boolean {
    return this.recentEnds.endedSince(mark, socket);
  }

  /** Adds a socket; false (nothing added) when its user already holds the maximum here. */
  add(socket: SessionSocket): boolean {
    const mine = this.byUser.get(socket.userId) ?? new Set();
    if (mine.size >= MAX_SOCKETS_PER_USER) return false;
    this.byUser.set(socket.userId, mine.add(socket));
    const session = this.bySession.get(socket.sessionId) ?? new Set();
    this.bySession.set(socket.sessionId, session.add(socket));
    return true;
  }

  /** Open sockets on this instance. */
  get size(): number {
    let count = 0;
    for (const sockets of this.byUser.values()) count += sockets.size;
    return count;
  }

  remove(socket: SessionSocket): void {
    this.forget(this.byUser, socket.userId, socket);
    this.forget(this.bySession, socket.sessionId, socket);
  }

  /** Closes the session's sockets on every instance (and lets voice drop it too). */
  endSession(sessionId: string, userId?: string): Promise<void> {
    return this.publish({ kind: 'session_ended', sessionId, ...(userId ? { userId } : {}) });
  }

  /**
   * Every session of the user ended (but `exceptSessionId`): their sockets close on every
   * instance, and voice ends with them.
   */
  endUser(userId: string, end: UserEnd): Promise<void> {
    return this.publish({ kind: 'user_ended', userId, ...end });
  }

  /** Tells the user's open `/ws` sockets on every instance to read their account again. */
  accountChanged(userId: string): Promise<void> {
    return this.publish({ kind: 'account_changed', userId });
  }

  onSessionEnded(listener: SessionEndedListener): () => void {
    this.sessionEndedListeners.add(listener);
    return () => this.sessionEndedListeners.delete(listener);
  }

  async close(): Promise<void> {
    clearInterval(this.expiryTimer);
    await this.unsubscribe?.();
  }

  private async publish(control: SessionControl): Promise<void> {
    await publishSessionControl(this.bus, control);
  }

  private apply(control: SessionControl): void {
    switch (control.kind) {
      case 'session_ended':
        this.recentEnds.remember({ sessionId: control.sessionId });
        for (const socket of [...(this.bySession.get(control.sessionId) ?? [])])
          socket.close(WS_CLOSE_CODES.unauthorized, 'Session ended');
        return this.tell(control);
      case 'user_ended': {
        const reason = control.reason === 'account_deleted' ? 'Account deleted' : 'Session ended';
        this.recentEnds.remember({ userId: control.userId, except: control.exceptSessionId });
        for (const socket of [...(this.byUser.get(control.userId) ?? [])]) {
          if (socket.sessionId !== control.exceptSessionId)
            socket.close(WS_CLOSE_CODES.unauthorized, reason);
        }
        return this.tell(control);
      }
      case 'account_changed':
        for (const socket of this.byUser.get(control.userId) ?? []) {
          if (socket.route === 'ws') socket.send({ type: 'account_changed' });
        }
    }
  }

  private tell(ended: SessionEnd): void {
    for (const listener of this.sessionEndedListeners) {
      try {
        listener(ended);
      } catch (error) {
        this.log.error({ err: error }, 'session end listener failed');
      }
    }
  }

  private closeExpired(): void {
    const now = this.now();
    for (const [sessionId, sockets] of this.bySession) {
      const [first] = sockets;
      if (!first || first.sessionExpiresAt > now) continue;
      this.log.info({ userId: first.userId }, 'session expired; closing its sockets');
      for (const socket of sockets) socket.close(WS_CLOSE_CODES.unauthorized, 'Session expired');
      // Closed sockets leave the registry on their close event; until then they are not counted twice.
      this.bySession.delete(sessionId);
      // The session's voice (and sockets) may be on other instances: they hear of it on the bus.
      this.endSession(sessionId, first.userId).catch((error: unknown) =>
        this.log.error({ err: error }, 'session expiry not announced'),
      );
    }
  }

  private forget(map: Map<string, Set<SessionSocket>>, key: string, socket: SessionSocket): void {
    const set = map.get(key);
    set?.delete(socket);
    if (set?.size === 0) map.delete(key);
  }
}
