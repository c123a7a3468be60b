import { describe, expect, it } from 'vitest';
import { chooseInitialChannel, parseChannelId } from './initial-channel';

const channels = [{ id: 3 }, { id: 7 }];

describe('chooseInitialChannel', () => {
  it('uses a requested channel the user belongs to', () => {
    expect(chooseInitialChannel({ requestedChannelId: 7, channels, tier: 'free' })).toBe(7);
    expect(chooseInitialChannel({ requestedChannelId: 7, channels, tier: 'admin' })).toBe(7);
  });

  it('uses a requested channel when the list is empty', () => {
    expect(chooseInitialChannel({ requestedChannelId: 9, channels: [], tier: 'member' })).toBe(9);
    expect(chooseInitialChannel({ requestedChannelId: 9, channels: [], tier: 'superadmin' })).toBe(
      9,
    );
  });

  it('ignores a requested channel the user does not belong to', () => {
    expect(chooseInitialChannel({ requestedChannelId: 9, channels, tier: 'free' })).toBe(3);
    expect(chooseInitialChannel({ requestedChannelId: 9, channels, tier: 'admin' })).toBeNull();
  });

  it('defaults non-admins to their first channel', () => {
    expect(chooseInitialChannel({ requestedChannelId: null, channels, tier: 'free' })).toBe(3);
    expect(chooseInitialChannel({ requestedChannelId: null, channels, tier: 'member' })).toBe(3);
  });

  it('gives admins and superadmins no automatic default', () => {
    expect(chooseInitialChannel({ requestedChannelId: null, channels, tier: 'admin' })).toBeNull();
    expect(
      chooseInitialChannel({ requestedChannelId: null, channels, tier: 'superadmin' }),
    ).toBeNull();
  });

  it('returns to the last channel the user had open, if they still belong to it', () => {
    expect(
      chooseInitialChannel({ requestedChannelId: null, channels, tier: 'admin', lastChannelId: 7 }),
    ).toBe(7);
    expect(
      chooseInitialChannel({ requestedChannelId: null, channels, tier: 'free', lastChannelId: 7 }),
    ).toBe(7);
    expect(
      chooseInitialChannel({ requestedChannelId: null, channels, tier: 'admin', lastChannelId: 9 }),
    ).toBeNull();
    // An invitation still wins over habit.
    expect(
      chooseInitialChannel({ requestedChannelId: 3, channels, tier: 'admin', lastChannelId: 7 }),
    ).toBe(3);
  });

  it('opens a requested or last-open direct conversation, but never picks one by default', () => {
    const groups = [{ id: 3 }, { id: 7 }];
    const conversations = [{ id: 40 }];
    // A notification's tap names the conversation's channel.
    expect(
      chooseInitialChannel({ requestedChannelId: 40, channels: groups, tier: 'free', conversations }),
    ).toBe(40);
    expect(
      chooseInitialChannel({
        requestedChannelId: null,
        channels: groups,
        tier: 'admin',
        lastChannelId: 40,
        conversations,
      }),
    ).toBe(40);
    // Someone else's conversation is not mine to open.
    expect(
      chooseInitialChannel({ requestedChannelId: 41, channels: groups, tier: 'free', conversations }),
    ).toBe(3);
    // With no group channel, a non-admin still is not dropped into a conversation.
    expect(
      chooseInitialChannel({ requestedChannelId: null, channels: [], tier: 'free', conversations }),
    ).toBeNull();
  });

  it('has nothing to choose from an empty list', () => {
    expect(
      chooseInitialChannel({ requestedChannelId: null, channels: [], tier: 'free' }),
    ).toBeNull();
  });
});

describe('parseChannelId', () => {
  it('accepts positive integers only', () => {
    expect(parseChannelId('12')).toBe(12);
    expect(parseChannelId('0')).toBeNull();
    expect(parseChannelId('-1')).toBeNull();
    expect(parseChannelId('1.5')).toBeNull();
    expect(parseChannelId('abc')).toBeNull();
    expect(parseChannelId(null)).toBeNull();
    expect(parseChannelId('')).toBeNull();
  });
});
