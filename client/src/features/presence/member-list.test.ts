import { describe, expect, it } from 'vitest';
import type { ChannelMember } from '../../../../protocol/channels';
import { upsertMember } from './member-list';

const member = (id: string, patch: Partial<ChannelMember> = {}): ChannelMember => ({
  id,
  userId: id,
  name: `User ${id}`,
  role: 'member',
  isOnline: false,
  isActiveInChannel: false,
  isTalking: false,
  isMutedInChannel: false,
  email: null,
  profileImageUrl: null,
  ...patch,
});

describe('upsertMember', () => {
  const list = [member('a'), member('b')];

  it('updates a member in place by id', () => {
    const next = upsertMember(list, member('b', { isOnline: true, isTalking: true }));
    expect(next.map((m) => [m.id, m.isTalking])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    expect(next[0]).toBe(list[0]);
  });

  it('appends a member it does not know', () => {
    expect(upsertMember(list, member('c')).map((m) => m.id)).toEqual(['a', 'b', 'c']);
  });

  it('keeps the same array when nothing changed', () => {
    expect(upsertMember(list, member('a'))).toBe(list);
  });
});
