import type { ChannelMember } from '../../../../protocol/channels';

export const UNDO_TEXTS = {
  removed: (name: string) => `Removed ${name}`,
  undo: 'Undo',
  undoLabel: (name: string) => `Undo removing ${name}`,
  restored: (name: string) => `${name} is back in the channel`,
} as const;

/**
 * How long the undo is offered: the toast's time on screen, twice spec §9's default 5 s, since it
 * asks for a decision rather than telling something (Radix also holds it while hovered or focused).
 */
export const UNDO_WINDOW_MS = 10_000;

export type RemoveWithUndoDeps = {
  remove: (memberId: string) => Promise<unknown>;
  /** The existing add-member request (`POST .../members {userId}`): they come back as a member. */
  add: (memberId: string) => Promise<unknown>;
  /** The existing admin mute, for one who was muted before the removal. */
  mute: (memberId: string) => Promise<unknown>;
  /** Shows "Removed <name>" with an Undo that calls `undo`. */
  announce: (member: ChannelMember, undo: () => void) => void;
  restored: (member: ChannelMember) => void;
};

/**
 * Removes a member, then offers to undo it: the undo adds them again through the add-member API
 * (the role a removable member has: only the channel's admin has another, and cannot be removed)
 * and, if an admin had muted them, mutes them again. Failures are told by the requests' own hooks.
 * Resolves whether the removal happened.
 */
export async function removeWithUndo(
  member: ChannelMember,
  deps: RemoveWithUndoDeps,
): Promise<boolean> {
  try {
    await deps.remove(member.id);
  } catch {
    return false;
  }
  let undone = false;
  deps.announce(member, () => {
    if (undone) return;
    undone = true;
    void (async () => {
      try {
        await deps.add(member.id);
        if (member.isMutedInChannel) await deps.mute(member.id);
        deps.restored(member);
      } catch {
        // The add or mute hook already toasted the failure.
      }
    })();
  });
  return true;
}
