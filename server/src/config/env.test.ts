import { createECDH, type ECDH } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from './env.js';

describe('parseEnv', () => {
  it('gives the embedded defaults for an empty environment', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(5000);
    expect(env.DATA_DIR).toBe('./data');
    expect(env.VOICE_PROVIDER).toBe('embedded');
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SUPERADMIN_EMAILS).toEqual([]);
    expect(env.BILLING).toBe('on');
    expect(env.TERMS_URL).toBeUndefined();
  });

  it('treats empty strings as unset, as .env files often leave them', () => {
    expect(parseEnv({ DATABASE_URL: '', PORT: '' }).PORT).toBe(5000);
  });

  it('normalises the superadmin e-mail list', () => {
    expect(parseEnv({ SUPERADMIN_EMAILS: ' Ann@X.org , bo@y.com,' }).SUPERADMIN_EMAILS).toEqual([
      'ann@x.org',
      'bo@y.com',
    ]);
  });

  it('never trusts every X-Forwarded-For hop: true means one proxy', () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(parseEnv({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY).toBe('10.0.0.0/8,127.0.0.1');
    expect(() => parseEnv({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });

  it('reads the sign-up policy, open by default', () => {
    expect(parseEnv({}).SIGNUP).toBe('open');
    expect(parseEnv({ SIGNUP: 'invite' }).SIGNUP).toBe('invite');
    expect(() => parseEnv({ SIGNUP: 'closed' })).toThrow(/SIGNUP/);
  });

  it('reads ICE servers as JSON', () => {
    const env = parseEnv({ ICE_SERVERS: '[{"urls":"turn:t.example:3478","username":"u","credential":"c"}]' });
    expect(env.ICE_SERVERS).toEqual([{ urls: 'turn:t.example:3478', username: 'u', credential: 'c' }]);
  });

  it.each([
    ['PORT', 'eighty', /^Invalid configuration: PORT must be a port number/],
    ['VOICE_PROVIDER', 'jitsi', /^Invalid configuration: VOICE_PROVIDER/],
    ['DATABASE_URL', 'not a url', /^Invalid configuration: DATABASE_URL must be a URL/],
    ['ICE_SERVERS', '{oops', /^Invalid configuration: ICE_SERVERS must be a JSON array/],
    ['SESSION_SECRET', 'short', /^Invalid configuration: SESSION_SECRET must be at least 32 characters/],
    ['BILLING', 'maybe', /^Invalid configuration: BILLING/],
    ['TERMS_URL', 'terms.html', /^Invalid configuration: TERMS_URL must be a URL/],
  ])('stops on a bad %s with one line naming it', (name, value, message) => {
    let error: unknown;
    try {
      parseEnv({ [name]: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message.split('\n')).toHaveLength(1);
  });

  it('takes a VAPID key pair only whole and well-formed, and a mailto: or https: subject', () => {
    // A private key is 32 bytes; getPrivateKey() drops leading zero bytes, so pad as web-push does.
    const scalar = (ecdh: ECDH) => Buffer.concat([Buffer.alloc(32 - ecdh.getPrivateKey().length), ecdh.getPrivateKey()]).toString('base64url');
    const device = createECDH('prime256v1');
    const publicKey = device.generateKeys('base64url');
    const privateKey = scalar(device);
    const other = createECDH('prime256v1');
    other.generateKeys();
    expect(parseEnv({ VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey })).toMatchObject({
      VAPID_PUBLIC_KEY: publicKey,
      VAPID_PRIVATE_KEY: privateKey,
    });
    expect(() => parseEnv({ VAPID_PUBLIC_KEY: publicKey })).toThrow(/VAPID_PRIVATE_KEY is required with the other VAPID key/);
    expect(() => parseEnv({ VAPID_PRIVATE_KEY: privateKey })).toThrow(/VAPID_PUBLIC_KEY is required/);
    expect(() => parseEnv({ VAPID_PUBLIC_KEY: privateKey, VAPID_PRIVATE_KEY: privateKey })).toThrow(/VAPID_PUBLIC_KEY must be base64url of 65 bytes/);
    expect(() => parseEnv({ VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: `${privateKey}!` })).toThrow(/VAPID_PRIVATE_KEY must be base64url/);
    expect(() => parseEnv({ VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: scalar(other) })).toThrow(
      /VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY/,
    );
    expect(parseEnv({ VAPID_SUBJECT: 'mailto:ops@example.com' }).VAPID_SUBJECT).toBe('mailto:ops@example.com');
    expect(() => parseEnv({ VAPID_SUBJECT: 'http://example.com' })).toThrow(/VAPID_SUBJECT must be a mailto: address or an https: URL/);
  });

  it('keeps transmissions in the database unless told s3, and then requires the bucket’s settings', () => {
    expect(parseEnv({}).TRANSMISSIONS_STORE).toBe('database');
    expect(() => parseEnv({ TRANSMISSIONS_STORE: 'disk' })).toThrow(/TRANSMISSIONS_STORE/);
    const s3 = {
      TRANSMISSIONS_STORE: 's3',
      S3_ENDPOINT: 'http://127.0.0.1:8333',
      S3_BUCKET: 'chirp',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    };
    const parsed = parseEnv(s3);
    expect([parsed.S3_FORCE_PATH_STYLE, parsed.S3_PREFIX]).toEqual([true, 'transmissions/']);
    expect(() => parseEnv({ ...s3, S3_BUCKET: '' })).toThrow(/S3_BUCKET is required when TRANSMISSIONS_STORE=s3/);
    expect(() => parseEnv({ ...s3, S3_SECRET_ACCESS_KEY: undefined })).toThrow(/S3_SECRET_ACCESS_KEY is required/);
    expect(() => parseEnv({ ...s3, S3_ENDPOINT: 'not a url' })).toThrow(/S3_ENDPOINT must be a URL/);
    expect(() => parseEnv({ ...s3, S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/S3_FORCE_PATH_STYLE/);
    expect(() => parseEnv({ ...s3, S3_PREFIX: '/abs' })).toThrow(/S3_PREFIX/);
  });

  it('requires a client id with an external issuer', () => {
    expect(() => parseEnv({ OIDC_ISSUER_URL: 'https://id.example.com' })).toThrow(/OIDC_CLIENT_ID is required/);
  });
});
