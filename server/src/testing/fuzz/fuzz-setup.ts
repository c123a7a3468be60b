import { randomBytes } from 'node:crypto';
import { createSession, sessionIdOf } from '../../auth/session-store.js';
import type { Database } from '../../db/database.js';
import { calls, channelMembers, channels, users } from '../../db/schema.js';
import { embeddedVoiceSecret } from '../../voice/embedded-provider.js';
import { createVoiceToken } from '../../voice/voice-token.js';
import type { FuzzTarget } from './socket-fuzzer.js';

/**
 * Real users with real sessions, written straight to the database (signing dozens of people in
 * through the form would measure argon2, not sockets): members of one channel, parties of one call.
 */
export async function seedFuzzTarget(
  db: Database,
  options: { baseUrl: string; sessionSecret: string; users: number },
): Promise<FuzzTarget & { channelId: number }> {
  const tag = randomBytes(4).toString('hex');
  const created = await db
    .insert(users)
    .values(
      Array.from({ length: options.users }, (_, i) => ({
        issuer: 'fuzz',
        subject: `${tag}-${i}`,
        firstName: 'Fuzz',
        lastName: String(i),
        email: `fuzz-${tag}-${i}@example.com`,
      })),
    )
    .returning({ id: users.id });
  const [channel] = await db
    .insert(channels)
    .values({ name: 'Fuzz', createdBy: created[0]!.id })
    .returning();
  await db
    .insert(channelMembers)
    .values(created.map((u) => ({ channelId: channel!.id, userId: u.id })));
  const roomName = `fuzzroom-${tag}`;
  await db.insert(calls).values({
    id: `fuzzcall-${tag}`,
    roomName,
    callerId: created[0]!.id,
    receiverId: created[1]!.id,
    status: 'active',
  });
  const tokens: string[] = [];
  for (const user of created) tokens.push(await createSession(db, user.id, undefined));
  const voiceTokens = await Promise.all(
    created.slice(0, 2).map(async (user, i) => {
      const voice = await createVoiceToken({
        apiSecret: embeddedVoiceSecret(options.sessionSecret),
        channelId: channel!.id,
        userId: user.id,
        userName: 'Fuzz',
        adminMuted: false,
        sessionId: sessionIdOf(tokens[i]!),
      });
      return voice.token;
    }),
  );
  return {
    baseUrl: options.baseUrl,
    cookies: tokens.map((token) => `chirp_session=${token}`),
    voiceTokens,
    channelId: channel!.id,
    context: {
      strings: [...created.map((u) => u.id), roomName, `fuzzcall-${tag}`, `channel-${channel!.id}`],
      numbers: [channel!.id, 0, 1, -1, 2_147_483_647, 2_147_483_648],
    },
  };
}
