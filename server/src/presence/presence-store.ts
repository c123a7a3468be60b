import type { MemberPresence } from '../memberships/member-presence.js';

/**
 * What one instance knows of one user: the channels its sockets joined, where they listen and
 * where they talk. `listening` is absent in states written before it existed, which means true.
 */
export interface UserPresenceState {
  channels: Record<string, { talking: boolean; listening?: boolean }>;
  /**
   * The sign-in sessions with a socket here whose page is visible: their devices get no push
   * notification. Absent when there is none (and in states written before it existed).
   */
  visibleSessions?: string[];
}

/**
 * Shared presence: each instance writes the users it holds sockets for; reads merge every live
 * instance. In memory for one process, Redis across instances (a crashed instance's entries expire).
 */
/** The user's states on every live instance just before and just after one save. */
export interface PresenceChange {
  before: UserPresenceState[];
  after: UserPresenceState[];
}

export interface PresenceStore {
  /**
   * Saves this instance's state of the user. Answers the user's states on every live instance just
   * before and after the write, read atomically with it, so a change is announced exactly when what
   * others see changed, and without reading again.
   */
  put(userId: string, state: UserPresenceState): Promise<PresenceChange>;
  /** Forgets the user on this instance; `after` is what the other live instances still hold. */
  remove(userId: string): Promise<PresenceChange>;
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

export const samePresence = (a: MemberPresence, b: MemberPresence) =>
  a.isOnline === b.isOnline &&
  a.isActiveInChannel === b.isActiveInChannel &&
  a.isTalking === b.isTalking;

/** A user's presence in one channel, merged over the instances that hold their sockets. */
export function mergePresence(
  states: readonly UserPresenceState[] | undefined,
  channelId: number,
): MemberPresence {
  if (!states?.length) return { isOnline: false, isActiveInChannel: false, isTalking: false };
  const inChannel = states
    .map((state) => state.channels[String(channelId)])
    .filter((c) => c !== undefined);
  return {
    isOnline: true,
    // Active = hears the channel now (decision 016): ONLINE there, not idle, not on a call.
    isActiveInChannel: inChannel.some((c) => c.listening !== false),
    isTalking: inChannel.some((c) => c.talking),
  };
}

export class MemoryPresenceStore implements PresenceStore {
  private readonly states = new Map<string, UserPresenceState>();

  async put(userId: string, state: UserPresenceState): Promise<PresenceChange> {
    const before = this.states.get(userId);
    const saved = structuredClone(state);
    this.states.set(userId, saved);
    return { before: before ? [before] : [], after: [saved] };
  }

  async remove(userId: string): Promise<PresenceChange> {
    const before = this.states.get(userId);
    this.states.delete(userId);
    return { before: before ? [before] : [], after: [] };
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
