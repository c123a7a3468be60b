import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelChanged } from '../../../../protocol/sockets';
import { adminMuterOf, noteOwnMute } from './admin-mute';

const olivia = { id: 'admin-1', name: 'Olivia Owner' };
const push = (overrides: Partial<ChannelChanged>): ChannelChanged => ({
  type: 'channel_changed',
  channelId: 7,
  change: 'member_muted',
  userId: 'me',
  ...overrides,
});

afterEach(() => {
  noteOwnMute(push({ muted: false }), 'me');
});

describe('noteOwnMute', () => {
  it('tells the muted member who muted them, and keeps it for their controls', () => {
    expect(noteOwnMute(push({ muted: true, by: olivia }), 'me')).toMatchObject({
      title: 'Muted by Olivia Owner',
      description: 'No one in this channel hears you until an admin unmutes you.',
    });
    expect(adminMuterOf(7)).toEqual(olivia);
  });

  it('tells them when they are unmuted, and by whom', () => {
    noteOwnMute(push({ muted: true, by: olivia }), 'me');
    expect(noteOwnMute(push({ muted: false, by: olivia }), 'me')).toEqual({
      title: 'You can talk again',
      description: 'Unmuted by Olivia Owner',
    });
    expect(adminMuterOf(7)).toBeUndefined();
  });

  it('ignores mutes of others, other changes, and pushes from a server that does not say', () => {
    expect(noteOwnMute(push({ muted: true, by: olivia, userId: 'ben' }), 'me')).toBeUndefined();
    expect(noteOwnMute(push({ change: 'member_added' }), 'me')).toBeUndefined();
    expect(noteOwnMute(push({}), 'me')).toBeUndefined();
    expect(adminMuterOf(7)).toBeUndefined();
  });

  it('still tells a mute without a name (the admin account is gone)', () => {
    expect(noteOwnMute(push({ muted: true }), 'me')?.title).toBe('Muted by a channel admin');
  });
});
