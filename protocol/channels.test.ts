import { describe, expect, it } from 'vitest';
import { addMemberBodySchema, channelIdSchema, createChannelBodySchema } from './channels.js';

describe('channel protocol schemas', () => {
  it('trims channel names and keeps them between 1 and 64 characters (spec §5, DESIGN §3)', () => {
    expect(createChannelBodySchema.parse({ name: '  Family ' })).toEqual({ name: 'Family' });
    expect(createChannelBodySchema.safeParse({ name: '   ' }).error?.issues[0]?.message).toBe(
      'Channel name cannot be empty',
    );
    expect(createChannelBodySchema.safeParse({ name: 'x'.repeat(64) }).success).toBe(true);
    expect(createChannelBodySchema.safeParse({ name: 'x'.repeat(65) }).success).toBe(false);
  });

  it('reads channel ids from path strings, refusing what no serial id can be', () => {
    expect(channelIdSchema.parse('42')).toBe(42);
    for (const bad of ['0', '-1', '1.5', 'abc', '', '2147483648'])
      expect(channelIdSchema.safeParse(bad).success).toBe(false);
  });

  it('adds a member by user id or by e-mail', () => {
    expect(addMemberBodySchema.parse({ userId: 'u1' })).toEqual({ userId: 'u1' });
    expect(addMemberBodySchema.parse({ email: ' A@B.example ' })).toEqual({ email: 'a@b.example' });
    expect(addMemberBodySchema.safeParse({}).success).toBe(false);
    expect(addMemberBodySchema.safeParse({ userId: '' }).success).toBe(false);
  });
});
