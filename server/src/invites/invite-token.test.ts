import { describe, expect, it } from 'vitest';
import { hashInviteToken, inviteUrl, newInviteToken } from './invite-token.js';

describe('invite tokens', () => {
  it('are 32 random bytes in base64url', () => {
    const token = newInviteToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(newInviteToken()).not.toBe(token);
  });

  it('are stored as a SHA-256 that does not contain the token', () => {
    const token = newInviteToken();
    const hash = hashInviteToken(token);
    expect(hash).toBe(hashInviteToken(token));
    expect(hash).not.toContain(token);
    expect(Buffer.from(hash, 'base64url')).toHaveLength(32);
  });

  it('make a link on the public origin, whatever path the public URL has', () => {
    expect(inviteUrl(new URL('https://chirp.example/app/'), 7, 'abc-_')).toBe(
      'https://chirp.example/?channel=7&invite=abc-_',
    );
  });
});
