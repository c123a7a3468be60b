import { and, eq, isNull } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../db/database.js';
import { usageSessions } from '../db/schema.js';
import { WeriftVoiceClient } from '../voice/sfu/testing/werift-voice-client.js';
import type { Person } from './people.js';

type Caller = Pick<Person, 'client' | 'id' | 'name'>;

/**
 * A voice token for the person in the channel, asked for as the app does (`POST
 * /api/livekit-token`, through their own signed-in client unless another is given). Expects it to be
 * granted.
 */
export async function voiceToken(
  person: Caller,
  channelId: number,
  client = person.client,
): Promise<{ url: string; token: string }> {
  const response = await client.request('/api/livekit-token', {
    method: 'POST',
    json: { channelId, userId: person.id, userName: person.name },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { url: string; token: string };
}

/** Joins the channel's voice on the built-in SFU as the app does: a token, then `/rtc`. */
export async function joinVoice(person: Caller, channelId: number): Promise<WeriftVoiceClient> {
  const { url, token } = await voiceToken(person, channelId);
  return WeriftVoiceClient.join(url, token);
}

/** Whether the person has an open voice usage row in the channel (the voice server counts them in). */
export async function voiceUsageOpen(db: Database, userId: string, channelId: number): Promise<boolean> {
  const rows = await db
    .select({ id: usageSessions.id })
    .from(usageSessions)
    .where(and(eq(usageSessions.userId, userId), eq(usageSessions.channelId, channelId), isNull(usageSessions.endedAt)))
    .limit(1);
  return rows.length > 0;
}

/**
 * Joins the channel's voice on the built-in SFU as the app does and waits until it publishes and the
 * SFU's join has opened the connection's usage row: from then on the server counts them in.
 */
export async function joinVoiceCounted(db: Database, person: Caller, channelId: number): Promise<WeriftVoiceClient> {
  const voice = await joinVoice(person, channelId);
  await voice.waitFor(() => voice.isPublishing, 10_000, `${person.name} publishes`);
  for (let tries = 0; !(await voiceUsageOpen(db, person.id, channelId)); tries++) {
    if (tries > 100) throw new Error(`no voice usage row for ${person.name}`);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  return voice;
}
