import { beforeEach, describe, expect, it } from 'vitest';
import { clearChannelEntry, connectedDescription, readChannelEntry } from './channel-entry';

beforeEach(() => {
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('readChannelEntry', () => {
  it('reads the channel and invite token from the address first', () => {
    sessionStorage.setItem('invitedChannelId', '9');
    expect(readChannelEntry('?channel=12&invite=tok', sessionStorage)).toEqual({
      channelId: 12,
      token: 'tok',
    });
  });

  it('falls back to what the landing kept before sign-in', () => {
    sessionStorage.setItem('invitedChannelId', '9');
    sessionStorage.setItem('inviteToken', 'kept');
    expect(readChannelEntry('', sessionStorage)).toEqual({ channelId: 9, token: 'kept' });
  });

  it('has nothing without either', () => {
    expect(readChannelEntry('?x=1', sessionStorage)).toEqual({ channelId: null, token: null });
  });
});

describe('clearChannelEntry', () => {
  it('removes the parameters from the address and the storage entries, keeping the rest', () => {
    window.history.replaceState(null, '', '/?channel=12&invite=tok&utm=a#top');
    sessionStorage.setItem('invitedChannelId', '12');
    sessionStorage.setItem('inviteToken', 'tok');
    clearChannelEntry(sessionStorage, window.location, window.history);
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe(
      '/?utm=a#top',
    );
    expect(sessionStorage.getItem('invitedChannelId')).toBeNull();
    expect(sessionStorage.getItem('inviteToken')).toBeNull();
  });
});

describe('connectedDescription', () => {
  it('names the channel and says the user is not hearing it yet', () => {
    expect(connectedDescription('Family')).toBe(
      'You are in Family, offline. Go online to listen and talk.',
    );
    expect(connectedDescription(undefined)).toBe(
      'You are in the channel, offline. Go online to listen and talk.',
    );
  });
});
