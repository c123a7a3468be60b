import type { MemberPresence } from './presence-reader.js';

/**
 * What one instance knows of one user: the channels its sockets joined, where they listen and
 * where they talk. `listening` is absent in states written before it existed, which means true.
 */
export interface UserPresenceState {
  channels: Record<string, { talking: boolean; listening?: boolean }>;
}

/**
 * Shared presence: each instance writes the users it holds sockets for; reads merge every live
 * instance. In memory for one process, Redis across instances (a crashed instance's entries expire).
 */
export interface PresenceStore {
  /**
   * Saves this instance's state of the user and answers the user's states on every live instance
   * (this one included), read in the same round trip, so the change can be announced at once.
   */
  put(userId: string, state: UserPresenceState): Promise<UserPresenceState[]>;
  /** Forgets the user on this instance; answers what the other live instances still hold. */
  remove(userId: string): Promise<UserPresenceState[]>;
  /** Every live instance's state for each user; a user absent from the map is offline everywhere. */
  read(userIds: readonly string[]): Promise<Map<string, UserPresenceState[]>>;
  /** Users held by instances found dead since the last call, so their members can be told. */
  reapDeadInstances(): Promise<string[]>;
  close(): Promise<void>;
}

/** A user's presence in one channel, merged over the instances that hold their sockets. */
export function mergePresence(states: readonly UserPresenceState[] | undefined, channelId: number): MemberPresence {
  if (!states?.length) return { isOnline: false, isActiveInChannel: false, isTalking: false };
  const inChannel = states.map((state) => state.channels[String(channelId)]).filter((c) => c !== undefined);
  return {
    isOnline: true,
    // Active = hears the channel now (decision 016): ONLINE there, not idle, not on a call.
    isActiveInChannel: inChannel.some((c) => c.listening !== false),
    isTalking: inChannel.some((c) => c.talking),
  };
}

export class MemoryPresenceStore implements PresenceStore {
  private readonly states = new Map<string, UserPresenceState>();

  async put(userId: string, state: UserPresenceState): Promise<UserPresenceState[]> {
    const saved = structuredClone(state);
    this.states.set(userId, saved);
    return [saved];
  }

  async remove(userId: string): Promise<UserPresenceState[]> {
    this.states.delete(userId);
    return [];
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
