import type { UserPresenceState } from './presence-store.js';

/** One socket in one channel: whether its user hears the channel and talks there. */
interface Joined {
  listening: boolean;
  talking: boolean;
}

/**
 * What this instance's sockets say about their users: which channels each socket joined, whether
 * it listens there (decision 016) and whether it talks. A user's state is the union over their
 * local sockets.
 */
export class PresenceTracker {
  private readonly users = new Map<string, Map<string, Map<number, Joined>>>();
  /** Per socket: the sign-in session it rides on and whether its page is visible (hidden until said). */
  private readonly pages = new Map<string, { sessionId: string; visible: boolean }>();

  open(userId: string, socketId: string, sessionId?: string): void {
    let sockets = this.users.get(userId);
    if (!sockets) this.users.set(userId, (sockets = new Map<string, Map<number, Joined>>()));
    sockets.set(socketId, new Map<number, Joined>());
    if (sessionId !== undefined) this.pages.set(socketId, { sessionId, visible: false });
  }

  close(userId: string, socketId: string): number[] {
    const sockets = this.users.get(userId);
    const channels = [...(sockets?.get(socketId)?.keys() ?? [])];
    sockets?.delete(socketId);
    this.pages.delete(socketId);
    if (sockets?.size === 0) this.users.delete(userId);
    return channels;
  }

  join(userId: string, socketId: string, channelId: number): void {
    const channels = this.users.get(userId)?.get(socketId);
    if (channels && !channels.has(channelId)) channels.set(channelId, { listening: true, talking: false });
  }

  /** `join_channel` says whether the user hears the channel; a plain join (the spec's) listens. */
  setListening(userId: string, socketId: string, channelId: number, listening: boolean): void {
    const joined = this.users.get(userId)?.get(socketId)?.get(channelId);
    if (joined) joined.listening = listening;
  }

  leave(userId: string, socketId: string, channelId: number): void {
    this.users.get(userId)?.get(socketId)?.delete(channelId);
  }

  setTalking(userId: string, socketId: string, channelId: number, talking: boolean): void {
    const joined = this.users.get(userId)?.get(socketId)?.get(channelId);
    if (joined) joined.talking = talking;
  }

  /** The socket joined the channel and hears it (ONLINE there, decision 016). */
  listening(userId: string, socketId: string, channelId: number): boolean {
    return this.users.get(userId)?.get(socketId)?.get(channelId)?.listening ?? false;
  }

  /** The socket's page became visible or hidden; false when it changed nothing. */
  setVisible(socketId: string, visible: boolean): boolean {
    const page = this.pages.get(socketId);
    if (!page || page.visible === visible) return false;
    page.visible = visible;
    return true;
  }

  joined(userId: string, socketId: string, channelId: number): boolean {
    return this.users.get(userId)?.get(socketId)?.has(channelId) ?? false;
  }

  /** Every user holding a socket on this instance. */
  userIds(): string[] {
    return [...this.users.keys()];
  }

  /** The user's state on this instance, or null when they hold no socket here. */
  stateOf(userId: string): UserPresenceState | null {
    const sockets = this.users.get(userId);
    if (!sockets) return null;
    const channels: UserPresenceState['channels'] = {};
    for (const joined of sockets.values()) {
      for (const [channelId, { listening, talking }] of joined) {
        const key = String(channelId);
        const before = channels[key];
        channels[key] = {
          talking: talking || (before?.talking ?? false),
          listening: listening || (before?.listening ?? false),
        };
      }
    }
    const visible = new Set<string>();
    for (const socketId of sockets.keys()) {
      const page = this.pages.get(socketId);
      if (page?.visible) visible.add(page.sessionId);
    }
    return visible.size > 0 ? { channels, visibleSessions: [...visible] } : { channels };
  }
}
