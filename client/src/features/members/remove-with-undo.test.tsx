import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ChannelMember } from '../../../../protocol/channels';
import { removeWithUndo, type RemoveWithUndoDeps } from './remove-with-undo';
import { RemoveMemberDialog } from './RemoveMemberDialog';

const ben: ChannelMember = {
  id: 'u2',
  userId: 'u2',
  name: 'Ben',
  role: 'member',
  isOnline: true,
  isActiveInChannel: true,
  isTalking: false,
  isMutedInChannel: false,
  email: null,
  profileImageUrl: null,
};

afterEach(cleanup);

/** The member list of a channel as the requests leave it: who is in, who is muted. */
function channel(): RemoveWithUndoDeps & {
  members: Set<string>;
  muted: Set<string>;
  undo?: () => void;
  told: string[];
} {
  const state = {
    members: new Set(['u1', 'u2']),
    muted: new Set<string>(),
    told: [] as string[],
    undo: undefined as (() => void) | undefined,
  };
  return Object.assign(state, {
    remove: (id: string) => {
      if (!state.members.delete(id)) return Promise.reject(new Error('Not a member'));
      state.muted.delete(id);
      return Promise.resolve();
    },
    add: (id: string) => {
      state.members.add(id);
      return Promise.resolve();
    },
    mute: (id: string) => {
      state.muted.add(id);
      return Promise.resolve();
    },
    announce: (member: ChannelMember, undo: () => void) => {
      state.told.push(`Removed ${member.name}`);
      state.undo = undo;
    },
    restored: (member: ChannelMember) => state.told.push(`${member.name} is back`),
  });
}

describe('RemoveMemberDialog', () => {
  it('asks before removing, names the member and the channel, and Cancel removes nobody', () => {
    const onConfirm = vi.fn();
    const onOpenChange = vi.fn();
    render(
      <RemoveMemberDialog
        member={ben}
        channelName="Family"
        removing={false}
        onConfirm={onConfirm}
        onOpenChange={onOpenChange}
      />,
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Remove Ben?' });
    expect(dialog.textContent).toContain('They leave Family at once');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('removes on Remove, and cannot be pressed twice while it runs', () => {
    const onConfirm = vi.fn();
    const { rerender } = render(
      <RemoveMemberDialog
        member={ben}
        channelName="Family"
        removing={false}
        onConfirm={onConfirm}
        onOpenChange={vi.fn()}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(onConfirm).toHaveBeenCalledWith(ben);
    rerender(
      <RemoveMemberDialog
        member={ben}
        channelName="Family"
        removing
        onConfirm={onConfirm}
        onOpenChange={vi.fn()}
      />,
    );
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Remove' }).disabled).toBe(true);
  });
});

describe('removeWithUndo', () => {
  it('removes, says so with an undo that adds the member back once', async () => {
    const deps = channel();
    expect(await removeWithUndo(ben, deps)).toBe(true);
    expect(deps.members.has('u2')).toBe(false);
    expect(deps.told).toEqual(['Removed Ben']);
    deps.undo?.();
    deps.undo?.();
    await waitFor(() => expect(deps.told).toEqual(['Removed Ben', 'Ben is back']));
    expect([...deps.members].sort()).toEqual(['u1', 'u2']);
    expect(deps.muted.size).toBe(0);
  });

  it('brings a muted member back muted', async () => {
    const deps = channel();
    deps.muted.add('u2');
    await removeWithUndo({ ...ben, isMutedInChannel: true }, deps);
    expect(deps.muted.has('u2')).toBe(false);
    deps.undo?.();
    await waitFor(() => expect(deps.muted.has('u2')).toBe(true));
    expect(deps.members.has('u2')).toBe(true);
  });

  it('offers no undo when the removal failed', async () => {
    const deps = channel();
    deps.members.delete('u2');
    expect(await removeWithUndo(ben, deps)).toBe(false);
    expect(deps.told).toEqual([]);
  });
});
