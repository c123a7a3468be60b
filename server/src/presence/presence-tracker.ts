import type { UserPresenceState } from './presence-store.js';

/**
 * What this instance's sockets say about their users: which channels each socket joined and whether
 * it talks there. A user's state is the union over their local sockets.
 */
export class PresenceTracker {
  private readonly users = new Map<string, Map<string, Map<number, boolean>>>();

  open(userId: string, socketId: string): void {
    let sockets = this.users.get(userId);
    if (!sockets) this.users.set(userId, (sockets = new Map<string, Map<number, boolean>>()));
    sockets.set(socketId, new Map<number, boolean>());
  }

  close(userId: string, socketId: string): number[] {
    const sockets = this.users.get(userId);
    const channels = [...(sockets?.get(socketId)?.keys() ?? [])];
    sockets?.delete(socketId);
    if (sockets?.size === 0) this.users.delete(userId);
    return channels;
  }

  join(userId: string, socketId: string, channelId: number): void {
    const channels = this.users.get(userId)?.get(socketId);
    if (channels && !channels.has(channelId)) channels.set(channelId, false);
  }

  leave(userId: string, socketId: string, channelId: number): void {
    this.users.get(userId)?.get(socketId)?.delete(channelId);
  }

  setTalking(userId: string, socketId: string, channelId: number, talking: boolean): void {
    this.users.get(userId)?.get(socketId)?.set(channelId, talking);
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
      for (const [channelId, talking] of joined) {
        const key = String(channelId);
        channels[key] = { talking: talking || (channels[key]?.talking ?? false) };
      }
    }
    return { channels };
  }
}
