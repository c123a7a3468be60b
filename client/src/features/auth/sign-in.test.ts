import { describe, expect, it } from 'vitest';
import {
  INVITE_TOKEN_STORAGE_KEY,
  INVITED_CHANNEL_STORAGE_KEY,
  loginUrl,
  rememberInvitedChannel,
} from './sign-in';

describe('sign-in', () => {
  it('asks the server to return to the current address', () => {
    expect(loginUrl('/', '')).toBe('/api/login?returnTo=%2F');
    expect(loginUrl('/', '?channel=12&invite=ab')).toBe(
      '/api/login?returnTo=%2F%3Fchannel%3D12%26invite%3Dab',
    );
  });

  it('keeps an invited channel in session storage', () => {
    sessionStorage.clear();
    rememberInvitedChannel('?channel=12&invite=ab', sessionStorage);
    expect(sessionStorage.getItem(INVITED_CHANNEL_STORAGE_KEY)).toBe('12');
    expect(sessionStorage.getItem(INVITE_TOKEN_STORAGE_KEY)).toBe('ab');
  });

  it('leaves storage alone without a channel parameter', () => {
    sessionStorage.clear();
    rememberInvitedChannel('?invite=ab', sessionStorage);
    expect(sessionStorage.getItem(INVITED_CHANNEL_STORAGE_KEY)).toBeNull();
  });
});
