import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../config/config.js';
import { parseEnv } from '../config/env.js';
import { callIceServers, sfuClientIceServers, turnServerFor } from './turn-credentials.js';

const turn = { secret: 'a-long-shared-turn-secret', urls: ['turn:turn.example:3478?transport=udp'], ttlSeconds: 3600 };
const configWith = (env: Record<string, string>) => resolveConfig(parseEnv({ DATA_DIR: '/tmp/chirp-turn-test', ...env }));

describe('TURN credentials (TURN REST API)', () => {
  it('names the expiry and the user, and signs the name with the shared secret', () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);
    const server = turnServerFor(turn, 'user-42', now);
    expect(server.username).toBe(`${now / 1000 + 3600}:user-42`);
    // What coturn computes from its static-auth-secret to check the password.
    expect(server.credential).toBe(createHmac('sha1', turn.secret).update(server.username!).digest('base64'));
    expect(server.urls).toEqual(turn.urls);
  });

  it('gives each user their own credential, and a different one with another secret', () => {
    const a = turnServerFor(turn, 'ann', 0);
    expect(turnServerFor(turn, 'bob', 0).credential).not.toBe(a.credential);
    expect(turnServerFor({ ...turn, secret: 'another-shared-turn-secret' }, 'ann', 0).credential).not.toBe(a.credential);
  });

  it('adds TURN to the STUN servers of calls and the SFU only when configured', () => {
    const plain = configWith({});
    expect(callIceServers(plain, 'u')).toEqual([{ urls: 'stun:stun.l.google.com:19302' }]);
    expect(sfuClientIceServers(plain, 'u')).toEqual([]);

    const withTurn = configWith({ TURN_SECRET: turn.secret, TURN_URLS: 'turn:t.example:3478, turns:t.example:5349?transport=tcp' });
    const call = callIceServers(withTurn, 'u');
    expect(call[0]).toEqual({ urls: 'stun:stun.l.google.com:19302' });
    expect(call[1]?.urls).toEqual(['turn:t.example:3478', 'turns:t.example:5349?transport=tcp']);
    expect(call[1]?.username).toMatch(/^\d+:u$/);
    expect(sfuClientIceServers(withTurn, 'u')).toEqual([call[1]]);
  });

  it('hands out credentials that expire within an hour by default: coturn cannot revoke them', () => {
    const now = Date.UTC(2026, 10, 25, 9, 0, 0);
    const config = configWith({ TURN_SECRET: turn.secret, TURN_URLS: 'turn:t.example:3478' });
    const server = turnServerFor(config.turn!, 'deleted-soon', now);
    const expiry = Number(server.username!.split(':')[0]);
    expect(expiry - now / 1000).toBe(3600);
    // What a deleted account keeps is bounded by the setting's ceiling, whatever the operator sets.
    expect(() => parseEnv({ TURN_SECRET: turn.secret, TURN_URLS: 'turn:t.example', TURN_TTL: '86400' })).toThrow(
      /TURN_TTL must be seconds between 60 and 3600/,
    );
    expect(parseEnv({ TURN_SECRET: turn.secret, TURN_URLS: 'turn:t.example', TURN_TTL: '600' }).TURN_TTL).toBe(600);
  });

  it.each([
    [{ TURN_SECRET: turn.secret }, /TURN_URLS is required/],
    [{ TURN_URLS: 'turn:t.example:3478' }, /TURN_SECRET is required/],
    [{ TURN_SECRET: turn.secret, TURN_URLS: 'stun:t.example:3478' }, /TURN_URLS must be comma-separated turn: or turns: URLs/],
    [{ TURN_SECRET: 'short', TURN_URLS: 'turn:t.example' }, /TURN_SECRET must be at least 16/],
    [{ TURN_SECRET: turn.secret, TURN_URLS: 'turn:t.example', TURN_TTL: '5' }, /TURN_TTL must be seconds/],
  ])('refuses a bad TURN setting at start: %o', (env, message) => {
    expect(() => parseEnv(env)).toThrow(message);
  });
});
