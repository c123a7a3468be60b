import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { redactUrl, serializeError } from './safe-serializers.js';

describe('redactUrl', () => {
  it('hides the values of codes, states, ID tokens and invite tokens, keeping the rest', () => {
    expect(redactUrl('/api/callback?code=abc123&state=xyz&iss=https%3A%2F%2Fid')).toBe(
      '/api/callback?code=redacted&state=redacted&iss=https%3A%2F%2Fid',
    );
    expect(redactUrl('/?channel=7&invite=s3cr3t')).toBe('/?channel=7&invite=redacted');
    expect(redactUrl('/oidc/session/end?id_token_hint=eyJ.x.y&client_id=chirp')).toBe(
      '/oidc/session/end?id_token_hint=redacted&client_id=chirp',
    );
    expect(redactUrl('/api/channels/7/members')).toBe('/api/channels/7/members');
  });
});

describe('redactUrl with a URL inside a parameter', () => {
  const token = 'Zq3kX9vB2mN8pL1tR7wY4cF6hJ0sD5gA_eU-iO2aQwE';
  const hidden = (url: string) => {
    const logged = redactUrl(url);
    expect(logged).not.toContain(token);
    return logged;
  };

  it("hides an invite token inside a returnTo's own query string, however often it is encoded", () => {
    const inner = `/?channel=7&invite=${token}`;
    expect(hidden(`/api/login?returnTo=${encodeURIComponent(inner)}`)).toBe(
      `/api/login?returnTo=${encodeURIComponent('/?channel=7&invite=redacted')}`,
    );
    hidden(`/api/login?returnTo=${encodeURIComponent(encodeURIComponent(inner))}`);
    hidden(`/api/login?returnTo=${encodeURIComponent(encodeURIComponent(encodeURIComponent(inner)))}`);
    hidden(`/api/login?returnTo=/?channel=7%26invite=${token}`);
    hidden(`/api/login?returnTo=${encodeURIComponent(`channel=7&invite=${token}`)}`);
    hidden(`/api/login?returnTo=${encodeURIComponent(`/settings#invite=${token}`)}`);
  });

  it('hides codes and states of a callback URL inside a returnTo, and invite paths anywhere', () => {
    const logged = hidden(`/api/login?returnTo=${encodeURIComponent(`/api/callback?code=${token}&state=${token}&iss=x`)}`);
    expect(logged).toBe(`/api/login?returnTo=${encodeURIComponent('/api/callback?code=redacted&state=redacted&iss=x')}`);
    expect(hidden(`/invite/${token}`)).toBe('/invite/redacted');
    expect(hidden(`/api/login?returnTo=${encodeURIComponent(`/invite/${token}?x=1`)}`)).toBe(
      `/api/login?returnTo=${encodeURIComponent('/invite/redacted?x=1')}`,
    );
    // A returnTo nested in a returnTo nested in a returnTo...
    let deep = `/?invite=${token}`;
    for (let i = 0; i < 8; i++) deep = `/api/login?returnTo=${encodeURIComponent(deep)}`;
    hidden(deep);
  });

  it('leaves URLs with nothing secret in them exactly as they came', () => {
    for (const url of [
      '/api/invite/generate?channelId=7',
      '/api/invite/accept',
      '/api/login?returnTo=%2Fsettings',
      '/api/login?returnTo=%2F%3Fchannel%3D7',
      '/api/channels/7/invites/12',
    ]) {
      expect(redactUrl(url)).toBe(url);
    }
  });
});

describe('serializeError', () => {
  it("keeps a failed query's SQL and error code but none of its values", () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "x"'), {
      code: '23505',
      detail: 'Key (email)=(boss@example.com) already exists.',
    });
    const error = new DrizzleQueryError(
      'insert into "local_accounts" ("email", "password_hash") values ($1, $2)',
      ['boss@example.com', '$argon2id$v=19$m=19456,t=2,p=1$abc$def'],
      cause,
    );
    const logged = JSON.stringify(serializeError(error));
    expect(logged).toContain('insert into \\"local_accounts\\"');
    expect(logged).toContain('23505');
    expect(logged).not.toContain('boss@example.com');
    expect(logged).not.toContain('$argon2');
  });
});
