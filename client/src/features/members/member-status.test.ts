import { describe, expect, it } from 'vitest';
import type { ChannelMember } from '../../../../protocol/channels';
import { isHeard, memberLabels, memberStatus, orderMembers } from './member-status';

const presence = (isOnline: boolean, isActiveInChannel: boolean, isTalking = false) => ({
  isOnline,
  isActiveInChannel,
  isTalking,
  isMutedInChannel: false,
});

const member = (
  id: string,
  name: string,
  overrides: Partial<ChannelMember> = {},
): ChannelMember => ({
  id,
  userId: id,
  name,
  role: 'member',
  isOnline: true,
  isActiveInChannel: true,
  isTalking: false,
  isMutedInChannel: false,
  email: null,
  profileImageUrl: null,
  ...overrides,
});

describe('memberStatus', () => {
  it('is offline without a connection', () => {
    expect(memberStatus(presence(false, false))).toBe('offline');
    expect(memberStatus(presence(false, true))).toBe('offline');
  });

  it('is idle when online but not active in the channel', () => {
    expect(memberStatus(presence(true, false))).toBe('idle');
  });

  it('is online when online and active, an open but silent microphone included', () => {
    expect(memberStatus(presence(true, true))).toBe('online');
    expect(memberStatus(presence(true, true, true))).toBe('online');
  });

  it('is speaking while the voice is heard, whatever else is known', () => {
    expect(memberStatus(presence(true, true, true), true)).toBe('speaking');
    expect(memberStatus(presence(true, false), true)).toBe('speaking');
    expect(memberStatus(presence(false, false), true)).toBe('speaking');
  });

  it('never says speaking for an admin-muted member', () => {
    expect(memberStatus({ ...presence(true, true, true), isMutedInChannel: true }, true)).toBe(
      'online',
    );
  });
});

describe('isHeard', () => {
  it('is the voice room hearing them, never an admin-muted member', () => {
    const audible = new Set(['a', 'm']);
    expect(isHeard(member('a', 'Ava'), audible)).toBe(true);
    expect(isHeard(member('b', 'Ben', { isTalking: true }), audible)).toBe(false);
    expect(isHeard(member('m', 'Mo', { isMutedInChannel: true }), audible)).toBe(false);
  });
});

describe('memberLabels', () => {
  it('labels the status and tags channel admins', () => {
    expect(memberLabels({ ...presence(true, true), role: 'admin' })).toEqual({
      status: 'online',
      label: 'Online',
      isAdmin: true,
    });
    expect(memberLabels({ ...presence(false, false), role: 'member' })).toEqual({
      status: 'offline',
      label: 'Offline',
      isAdmin: false,
    });
    expect(memberLabels({ ...presence(true, false), role: 'member' }).label).toBe('Idle');
    expect(memberLabels({ ...presence(true, true, true), role: 'member' }).label).toBe('Online');
    expect(memberLabels({ ...presence(true, true, true), role: 'member' }, true).label).toBe(
      'Speaking',
    );
  });
});

describe('orderMembers', () => {
  const list = [
    member('o', 'Otto', { isOnline: false }),
    member('i', 'Ida', { isActiveInChannel: false }),
    member('b', 'Ben', { isTalking: true }),
    member('a', 'Ava', { isTalking: true }),
    member('c', 'Cleo'),
  ];
  const names = (heard: string[]) => orderMembers(list, new Set(heard)).map((m) => m.name);

  it('keeps online, idle, offline by name while nobody is heard; open microphones do not move', () => {
    expect(names([])).toEqual(['Ava', 'Ben', 'Cleo', 'Ida', 'Otto']);
  });

  it('lists the member heard now first', () => {
    expect(names(['c'])).toEqual(['Cleo', 'Ava', 'Ben', 'Ida', 'Otto']);
    expect(names(['o', 'b'])).toEqual(['Ben', 'Otto', 'Ava', 'Cleo', 'Ida']);
  });

  it('does not move an admin-muted member reported as heard', () => {
    const muted = [...list, member('z', 'Zed', { isMutedInChannel: true })];
    expect(orderMembers(muted, new Set(['z'])).map((m) => m.name)[0]).toBe('Ava');
  });
});
