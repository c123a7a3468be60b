import { AccessToken } from 'livekit-server-sdk';
import { describe, expect, it, vi } from 'vitest';
import { userIdFromIdentity } from '../../../protocol/voice-signalling.js';
import {
  EMBEDDED_VOICE_API_KEY,
  createVoiceIdentity,
  createVoiceToken,
  createVoiceTokenVerifier,
} from './voice-token.js';

const apiSecret = 'unit-test-secret-unit-test-secret';
const verify = createVoiceTokenVerifier({ apiSecret, clockToleranceSeconds: 0 });
const uuid = '3f2b8c1e-9d4a-4e6b-8a7c-1b2c3d4e5f60';

describe('voice tokens', () => {
  it('round-trips a UUID user id through the identity (spec §3)', () => {
    const identity = createVoiceIdentity(uuid, 1_700_000_000_000);
    expect(identity.startsWith(`${uuid}-1700000000000-`)).toBe(true);
    expect(userIdFromIdentity(identity)).toBe(uuid);
  });

  it('carries the room, name and publish right, and verifies', async () => {
    // The clock is set, so the expiry is exact: ten minutes after minting.
    const mintedAt = 1_800_000_000_000;
    vi.useFakeTimers({ toFake: ['Date'], now: mintedAt });
    try {
      const created = await createVoiceToken({
        apiSecret,
        channelId: 42,
        userId: uuid,
        userName: 'Ann Lee',
        adminMuted: false,
      });
      expect(created.roomName).toBe('channel-42');
      const verified = await verify(created.token);
      expect(verified).toMatchObject({
        identity: created.identity,
        userId: uuid,
        name: 'Ann Lee',
        roomName: 'channel-42',
        canPublish: true,
        canSubscribe: true,
      });
      expect(verified.expiresAt).toBe(mintedAt + 10 * 60_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it('withholds the publish right while admin-muted', async () => {
    const created = await createVoiceToken({
      apiSecret,
      channelId: 1,
      userId: 'u',
      userName: 'U',
      adminMuted: true,
    });
    expect((await verify(created.token)).canPublish).toBe(false);
  });

  it('refuses expired, foreign-signed, roomless and malformed-identity tokens', async () => {
    const expired = await createVoiceToken({
      apiSecret,
      channelId: 1,
      userId: 'u',
      userName: 'U',
      adminMuted: false,
      ttl: '-1m',
    });
    await expect(verify(expired.token)).rejects.toThrow(/invalid voice token/);
    const foreign = await createVoiceToken({
      apiSecret: 'someone-elses-secret',
      channelId: 1,
      userId: 'u',
      userName: 'U',
      adminMuted: false,
    });
    await expect(verify(foreign.token)).rejects.toThrow(/invalid voice token/);
    const roomless = new AccessToken(EMBEDDED_VOICE_API_KEY, apiSecret, { identity: 'u-1-x' });
    roomless.addGrant({ roomJoin: true });
    await expect(verify(await roomless.toJwt())).rejects.toThrow(/room-join grant/);
    const badIdentity = new AccessToken(EMBEDDED_VOICE_API_KEY, apiSecret, {
      identity: 'nodashes',
    });
    badIdentity.addGrant({ roomJoin: true, room: 'channel-1' });
    await expect(verify(await badIdentity.toJwt())).rejects.toThrow(/identity/);
    await expect(verify('not-a-jwt')).rejects.toThrow(/invalid voice token/);
  });
});
