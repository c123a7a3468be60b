import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { WS_CLOSE_CODES } from '../../../protocol/sockets.js';
import type { Bus } from './bus.js';
import type { ClientSocket } from './client-socket.js';

/** Open `/ws` + `/ws/webrtc` sockets one user may hold on one instance (decision 016). */
export const MAX_SOCKETS_PER_USER = 20;
/** How often sockets of expired sessions are looked for: a session's end is felt within this. */
const EXPIRY_CHECK_MS = 500;

/** Every instance listens here for changes that must reach sockets wherever they are. */
export const SOCKET_CONTROL_TOPIC = 'sockets:control';

const controlSchema = z.discriminatedUnion('kind', [
  /** Logout, sign-in elsewhere with the same cookie, or an operator ended it. */
  z.object({ kind: z.literal('session_ended'), sessionId: z.string() }),
  /** The user's tier (or anything `/api/auth/user` shows) changed. */
  z.object({ kind: z.literal('account_changed'), userId: z.string() }),
]);
type Control = z.infer<typeof controlSchema>;

/** A socket as the registry knows it: whose session it rides on, and until when. */
export interface SessionSocket extends ClientSocket {
  /** Which socket route (`ws`, `webrtc`): account changes are pushed on `/ws` only. */
  readonly route: string;
  readonly sessionId: string;
  readonly sessionExpiresAt: number;
}

type SessionEndedListener = (sessionId: string) => void;

/**
 * This instance's open JSON sockets by user and by session. It caps sockets per user, and makes a
 * session's end (logout, expiry) and account changes reach open sockets within a second on every
 * instance, through the bus.
 */
export class SocketRegistry {
  private readonly byUser = new Map<string, Set<SessionSocket>>();
  private readonly bySession = new Map<string, Set<SessionSocket>>();
  private readonly sessionEndedListeners = new Set<SessionEndedListener>();
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
      const control = controlSchema.safeParse(message);
      if (control.success) this.apply(control.data);
    });
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
  endSession(sessionId: string): Promise<void> {
    return this.publish({ kind: 'session_ended', sessionId });
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

  private async publish(control: Control): Promise<void> {
    await this.bus.publish(SOCKET_CONTROL_TOPIC, control);
  }

  private apply(control: Control): void {
    if (control.kind === 'session_ended') {
      for (const socket of [...(this.bySession.get(control.sessionId) ?? [])]) {
        socket.close(WS_CLOSE_CODES.unauthorized, 'Session ended');
      }
      for (const listener of this.sessionEndedListeners) listener(control.sessionId);
      return;
    }
    for (const socket of this.byUser.get(control.userId) ?? []) {
      if (socket.route === 'ws') socket.send({ type: 'account_changed' });
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
      for (const listener of this.sessionEndedListeners) listener(sessionId);
    }
  }

  private forget(map: Map<string, Set<SessionSocket>>, key: string, socket: SessionSocket): void {
    const set = map.get(key);
    set?.delete(socket);
    if (set?.size === 0) map.delete(key);
  }
}
