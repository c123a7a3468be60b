import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ChannelMember } from '../../../../protocol/channels';
import type { MemberActions } from './member-actions';
import { MemberActionsMenu } from './MemberActionsMenu';

const ben: ChannelMember = {
  id: 'u2',
  userId: 'u2',
  name: 'Ben Bartholomew',
  role: 'member',
  isOnline: true,
  isActiveInChannel: true,
  isTalking: false,
  isMutedInChannel: false,
  email: null,
  profileImageUrl: null,
};

afterEach(cleanup);

const everyone = (): MemberActions => ({ onPoke: vi.fn(), onCall: vi.fn(), onTalk: vi.fn() });
const asAdmin = (): MemberActions => ({
  ...everyone(),
  onToggleMute: vi.fn(),
  onRemove: vi.fn(),
});

/** Opens the menu from the keyboard, as a keyboard user would. */
function openMenu() {
  const trigger = screen.getByRole('button', { name: 'Actions for Ben Bartholomew' });
  expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
  fireEvent.keyDown(trigger, { key: 'Enter' });
  return screen.getByRole('menu', { name: 'Actions for Ben Bartholomew' });
}
const items = () => screen.getAllByRole('menuitem').map((item) => item.textContent);

describe('MemberActionsMenu', () => {
  it('offers a member Poke, Call and Talk, and nothing an admin does', () => {
    const actions = everyone();
    render(<MemberActionsMenu member={ben} actions={actions} />);
    openMenu();
    expect(items()).toEqual(['Poke', 'Call', 'Talk']);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Call' }));
    expect(actions.onCall).toHaveBeenCalledOnce();
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('leaves Talk out where there is no direct conversation to open (a conversation itself)', () => {
    render(<MemberActionsMenu member={ben} actions={{ onPoke: vi.fn(), onCall: vi.fn() }} />);
    openMenu();
    expect(items()).toEqual(['Poke', 'Call']);
  });

  it('offers a channel admin Mute and Remove too; Remove only asks (the caller confirms)', () => {
    const actions = asAdmin();
    render(<MemberActionsMenu member={ben} actions={actions} />);
    openMenu();
    expect(items()).toEqual(['Poke', 'Call', 'Talk', 'Mute', 'Remove…']);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Remove…' }));
    expect(actions.onRemove).toHaveBeenCalledOnce();
  });

  it('says Unmute for a muted member', () => {
    const actions = asAdmin();
    render(<MemberActionsMenu member={{ ...ben, isMutedInChannel: true }} actions={actions} />);
    openMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Unmute' }));
    expect(actions.onToggleMute).toHaveBeenCalledOnce();
  });

  it('pokes once while a poke is on its way', () => {
    const actions = { ...everyone(), busy: 'poke' as const };
    render(<MemberActionsMenu member={ben} actions={actions} />);
    openMenu();
    expect(screen.getByRole('menuitem', { name: 'Poke' }).getAttribute('aria-disabled')).toBe(
      'true',
    );
  });
});
