import { expect } from 'vitest';
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
