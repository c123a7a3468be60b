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
