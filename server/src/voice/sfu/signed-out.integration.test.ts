import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VOICE_CLOSE_CODES } from '../../../../protocol/voice-signalling.js';
import { createVoiceToken } from '../voice-token.js';
import type { SfuAdmission } from './embedded-sfu.js';
import {
  startSfuTestServer,
  TEST_VOICE_SECRET,
  type SfuTestServer,
} from './testing/sfu-test-server.js';
import { WeriftVoiceClient } from './testing/werift-voice-client.js';

let server: SfuTestServer;
const clients: WeriftVoiceClient[] = [];
/** Admissions held back by the test (the database answering slowly), by user. */
const held = new Map<string, () => void>();

beforeAll(async () => {
  server = await startSfuTestServer({
    admit: async (token): Promise<SfuAdmission> => {
      if (token.userId.startsWith('slow'))
        await new Promise<void>((resolve) => held.set(token.userId, resolve));
      // The sign-in session behind this token expires 300 ms from now.
      if (token.userId === 'expiring')
        return { admitted: true, muted: false, signInExpiresAt: Date.now() + 300 };
      return { admitted: true, muted: false };
    },
  });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await server.close();
});

/** A token of `userId` issued to the sign-in session `sessionId`, for channel `channelId`. */
const tokenOf = async (userId: string, sessionId: string, channelId = 1) =>
  (
    await createVoiceToken({
      apiSecret: TEST_VOICE_SECRET,
      channelId,
      userId,
      userName: userId,
      adminMuted: false,
      sessionId,
    })
  ).token;

const join = async (token: string) => {
  const client = await WeriftVoiceClient.join(server.url, token);
  clients.push(client);
  return client;
};

describe("the built-in SFU ends a signed-out user's voice", () => {
  it('in every room, but for the sign-in session that stays and for everyone else', async () => {
    const phoneA = await join(await tokenOf('sam', 'phone', 1));
    const phoneB = await join(await tokenOf('sam', 'phone', 2));
    const laptop = await join(await tokenOf('sam', 'laptop', 1));
    const other = await join(await tokenOf('kim', 'kims', 1));
    for (const client of [phoneA, phoneB, laptop, other]) expect(client.joined).toBeDefined();

    server.sfu.disconnectSignedOutUser('sam', 'laptop');
    for (const client of [phoneA, phoneB])
      await client.waitFor(() => client.closeCode !== undefined, 2000, 'close');
    expect([phoneA.closeCode, phoneB.closeCode]).toEqual([
      VOICE_CLOSE_CODES.unauthorized,
      VOICE_CLOSE_CODES.unauthorized,
    ]);
    expect(
      server.sfu
        .participants('channel-1')
        .map((p) => p.userId)
        .sort(),
    ).toEqual(['kim', 'sam']);

    server.sfu.disconnectSignedOutUser('sam');
    await laptop.waitFor(() => laptop.closeCode !== undefined, 2000, 'close');
    expect(server.sfu.participants('channel-1').map((p) => p.userId)).toEqual(['kim']);
  });

  it('refuses a join whose admission was under way when the session ended', async () => {
    const token = await tokenOf('slow-sam', 'phone');
    const joining = join(token);
    // The database said "live" (the admission is about to answer) when the end is heard.
    await new Promise<void>((resolve) => {
      const check = () => (held.has('slow-sam') ? resolve() : setTimeout(check, 10));
      check();
    });
    server.sfu.disconnectSignInSession('phone');
    held.get('slow-sam')!();
    const client = await joining;
    expect(client.joined).toBeUndefined();
    expect(client.closeCode).toBe(VOICE_CLOSE_CODES.unauthorized);

    // A session that did not end gets in as ever.
    held.clear();
    const laterToken = await tokenOf('slow-sam', 'laptop');
    const later = join(laterToken);
    await new Promise<void>((resolve) => {
      const check = () => (held.has('slow-sam') ? resolve() : setTimeout(check, 10));
      check();
    });
    held.get('slow-sam')!();
    expect((await later).joined).toBeDefined();
  });

  it('when its sign-in session expires, with no socket of the app to notice it', async () => {
    const expiring = await join(await tokenOf('expiring', 'short'));
    const staying = await join(await tokenOf('kim', 'long'));
    expect(expiring.joined).toBeDefined();
    await expiring.waitFor(() => expiring.closeCode !== undefined, 5000, 'close at expiry');
    expect(expiring.closeCode).toBe(VOICE_CLOSE_CODES.unauthorized);
    expect(staying.closeCode).toBeUndefined();
  });
});
