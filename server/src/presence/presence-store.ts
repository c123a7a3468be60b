import type { MemberPresence } from './presence-reader.js';

/** What one instance knows of one user: the channels its sockets joined, and where they talk. */
export interface UserPresenceState {
  channels: Record<string, { talking: boolean }>;
}

/**
 * Shared presence: each instance writes the users it holds sockets for; reads merge every live
 * instance. In memory for one process, Redis across instances (a crashed instance's entries expire).
 */
export interface PresenceStore {
  put(userId: string, state: UserPresenceState): Promise<void>;
  remove(userId: string): Promise<void>;
  /** Every live instance's state for each user; a user absent from the map is offline everywhere. */
  read(userIds: readonly string[]): Promise<Map<string, UserPresenceState[]>>;
  /** Users held by instances found dead since the last call, so their members can be told. */
  reapDeadInstances(): Promise<string[]>;
  /**
   * Called when this instance finds it was reaped while alive (its Redis connection dropped): the
   * presence service writes its users back. Only stores shared across instances need it.
   */
  onRestored?(listener: () => void): void;
  close(): Promise<void>;
}

/** A user's presence in one channel, merged over the instances that hold their sockets. */
export function mergePresence(states: readonly UserPresenceState[] | undefined, channelId: number): MemberPresence {
  if (!states?.length) return { isOnline: false, isActiveInChannel: false, isTalking: false };
  const inChannel = states.map((state) => state.channels[String(channelId)]).filter((c) => c !== undefined);
  return {
    isOnline: true,
    isActiveInChannel: inChannel.length > 0,
    isTalking: inChannel.some((c) => c.talking),
  };
}

export class MemoryPresenceStore implements PresenceStore {
  private readonly states = new Map<string, UserPresenceState>();

  async put(userId: string, state: UserPresenceState): Promise<void> {
    this.states.set(userId, structuredClone(state));
  }

  async remove(userId: string): Promise<void> {
    this.states.delete(userId);
  }

  async read(userIds: readonly string[]): Promise<Map<string, UserPresenceState[]>> {
    const result = new Map<string, UserPresenceState[]>();
    for (const id of userIds) {
      const state = this.states.get(id);
      if (state) result.set(id, [state]);
    }
    return result;
  }

  async reapDeadInstances(): Promise<string[]> {
    return [];
  }

  async close(): Promise<void> {
    this.states.clear();
  }
}
