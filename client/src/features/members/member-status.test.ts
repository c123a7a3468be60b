import { describe, expect, it } from 'vitest';
import { memberLabels, memberStatus } from './member-status';

const presence = (isOnline: boolean, isActiveInChannel: boolean, isTalking: boolean) => ({
  isOnline,
  isActiveInChannel,
  isTalking,
});

describe('memberStatus', () => {
  it('is offline without a connection', () => {
    expect(memberStatus(presence(false, false, false))).toBe('offline');
    expect(memberStatus(presence(false, true, false))).toBe('offline');
  });

  it('is idle when online but not active in the channel', () => {
    expect(memberStatus(presence(true, false, false))).toBe('idle');
  });

  it('is online when online and active', () => {
    expect(memberStatus(presence(true, true, false))).toBe('online');
  });

  it('is speaking while talking, whatever else is known', () => {
    expect(memberStatus(presence(true, true, true))).toBe('speaking');
    expect(memberStatus(presence(true, false, true))).toBe('speaking');
    expect(memberStatus(presence(false, false, true))).toBe('speaking');
  });
});

describe('memberLabels', () => {
  it('labels the status and tags channel admins', () => {
    expect(memberLabels({ ...presence(true, true, false), role: 'admin' })).toEqual({
      status: 'online',
      label: 'Online',
      isAdmin: true,
    });
    expect(memberLabels({ ...presence(false, false, false), role: 'member' })).toEqual({
      status: 'offline',
      label: 'Offline',
      isAdmin: false,
    });
    expect(memberLabels({ ...presence(true, false, false), role: 'member' }).label).toBe('Idle');
    expect(memberLabels({ ...presence(true, true, true), role: 'member' }).label).toBe('Speaking');
  });
});
