import type { SfuRoom } from './sfu-room.js';
import type { SfuSession } from './sfu-session.js';

/**
 * Voice connections one user may hold at once, across rooms, counting joins still being checked:
 * one per device. Each costs UDP sockets, a usage row and an encryption per forwarded packet.
 */
export const MAX_SESSIONS_PER_USER = 4;

/** A join or resume whose token checked out and whose admission is being asked. */
export interface PendingAdmission {
  /** The sign-in session behind it ended while it was asked: it must not get in. */
  readonly revoked: boolean;
  /** The answer came (either way). */
  end(): void;
}

interface Pending {
  userId: string;
  signInSessionId: string | undefined;
  joining: boolean;
  revoked: boolean;
}

/**
 * Who is connected: every session by id and every room by name, the joins still being admitted,
 * the per-user cap, and which sessions an ended sign-in takes with it.
 */
export class SessionRegistry {
  private readonly byId = new Map<string, SfuSession>();
  private readonly rooms = new Map<string, SfuRoom>();
  private readonly pending = new Set<Pending>();
  /** Sessions whose sign-in session expires, and when (ms). */
  private readonly signInExpiry = new Map<SfuSession, number>();

  get size(): number {
    return this.byId.size;
  }

  get roomCount(): number {
    return this.rooms.size;
  }

  get(sessionId: string): SfuSession | undefined {
    return this.byId.get(sessionId);
  }

  ids(): string[] {
    return [...this.byId.keys()];
  }

  /** A copy, oldest first: safe to end sessions while going through it. */
  all(): SfuSession[] {
    return [...this.byId.values()];
  }

  room(name: string): SfuRoom | undefined {
    return this.rooms.get(name);
  }

  roomOr(name: string, create: () => SfuRoom): SfuRoom {
    let room = this.rooms.get(name);
    if (!room) this.rooms.set(name, (room = create()));
    return room;
  }

  /** Every session of the room now (a copy). */
  inRoom(roomName: string): SfuSession[] {
    return [...(this.rooms.get(roomName)?.sessions.values() ?? [])];
  }

  hasSessions(userId: string): boolean {
    for (const session of this.byId.values()) if (session.userId === userId) return true;
    return false;
  }

  add(session: SfuSession): void {
    this.byId.set(session.sessionId, session);
  }

  /** Whether it was registered (a session ends once). Its room goes when it is empty. */
  remove(session: SfuSession): boolean {
    this.signInExpiry.delete(session);
    if (this.byId.get(session.sessionId) !== session) return false;
    this.byId.delete(session.sessionId);
    return true;
  }

  dropRoomIfEmpty(name: string): void {
    const room = this.rooms.get(name);
    if (!room?.isEmpty) return;
    room.dispose();
    this.rooms.delete(name);
  }

  /**
   * Whether one more connection of the user fits: yes; or the session it replaces (their oldest in
   * the same room, as a device that reconnects replaces its own); or no.
   */
  fits(userId: string, roomName: string): true | SfuSession | false {
    let used = 0;
    for (const pending of this.pending) if (pending.joining && pending.userId === userId) used++;
    if (used >= MAX_SESSIONS_PER_USER) return false;
    let oldestHere: SfuSession | undefined;
    // Insertion order: the oldest session first.
    for (const session of this.byId.values()) {
      if (session.userId !== userId) continue;
      used++;
      if (session.roomName === roomName) oldestHere ??= session;
    }
    if (used < MAX_SESSIONS_PER_USER) return true;
    return oldestHere ?? false;
  }

  /**
   * Taken before asking the admission: a sign-in end heard while it is asked (the database said
   * "live" a moment before the end committed) revokes it, so it is refused all the same.
   */
  beginAdmission(
    who: { userId: string; sessionId: string | undefined },
    joining: boolean,
  ): PendingAdmission {
    const pending: Pending = {
      userId: who.userId,
      signInSessionId: who.sessionId,
      joining,
      revoked: false,
    };
    this.pending.add(pending);
    return {
      get revoked() {
        return pending.revoked;
      },
      end: () => {
        this.pending.delete(pending);
      },
    };
  }

  /** A sign-in session ended: its admissions under way are revoked; returns its sessions. */
  signInEnded(signInSessionId: string): SfuSession[] {
    for (const pending of this.pending)
      if (pending.signInSessionId === signInSessionId) pending.revoked = true;
    return this.all().filter((session) => session.signInSessionId === signInSessionId);
  }

  /**
   * Every sign-in session of the user but `except` ended: their admissions under way are revoked;
   * returns their sessions.
   */
  signedOut(userId: string, except?: string): SfuSession[] {
    const covered = (signInSessionId: string | undefined) =>
      except === undefined || signInSessionId !== except;
    for (const pending of this.pending)
      if (pending.userId === userId && covered(pending.signInSessionId)) pending.revoked = true;
    return this.all().filter(
      (session) => session.userId === userId && covered(session.signInSessionId),
    );
  }

  /** The session's voice ends when its sign-in session does (epoch ms). */
  expiresAt(session: SfuSession, at: number): void {
    if (this.byId.get(session.sessionId) === session) this.signInExpiry.set(session, at);
  }

  /** Sessions whose sign-in session has expired by `now`. */
  expired(now: number): SfuSession[] {
    return [...this.signInExpiry].filter(([, at]) => at <= now).map(([session]) => session);
  }
}
