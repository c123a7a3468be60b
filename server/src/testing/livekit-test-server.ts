import { randomBytes } from 'node:crypto';
import { RoomServiceClient, type ParticipantInfo } from 'livekit-server-sdk';
import { expect } from 'vitest';
import type { Person } from './people.js';
import type { DatabaseHandle } from '../db/database.js';
import { TestClient } from './http-client.js';
import { startTestServer, type TestServer } from './test-server.js';
import { livekitHttpUrl } from '../voice/livekit/livekit-rooms.js';
import { LivekitTestParticipant } from '../voice/livekit/testing/livekit-test-participant.js';

/**
 * The test LiveKit (scripts/services.sh): rooms are never created by a join, and its webhooks go
 * through a relay where each test server registers the prefix of its rooms.
 */
export const testLivekit = {
  url: process.env.TEST_LIVEKIT_URL,
  apiKey: process.env.TEST_LIVEKIT_API_KEY ?? 'devkey',
  apiSecret: process.env.TEST_LIVEKIT_API_SECRET ?? 'secret',
  relay: process.env.TEST_LIVEKIT_WEBHOOK_RELAY,
};

/** Whether LiveKit and its webhook relay are there: the suites that need both run only then. */
export const livekitWithWebhooks = Boolean(testLivekit.url && testLivekit.relay);

export interface LivekitTestServer extends TestServer {
  prefix: string;
  rooms: RoomServiceClient;
  /** Stops the server and takes its prefix off the relay. */
  stop(): Promise<void>;
}

/**
 * A Chirp server on LiveKit, in rooms of its own prefix, receiving its rooms' webhooks (unless
 * `webhooks: false`: a server whose joins are not yet reported, as when LiveKit's webhook trails).
 */
export async function startLivekitTestServer(
  database: DatabaseHandle,
  env: Record<string, string> = {},
  { webhooks = true }: { webhooks?: boolean } = {},
): Promise<LivekitTestServer> {
  const prefix = `t${randomBytes(4).toString('hex')}-`;
  const server = await startTestServer(database, {
    VOICE_PROVIDER: 'livekit',
    LIVEKIT_URL: testLivekit.url!,
    LIVEKIT_API_KEY: testLivekit.apiKey,
    LIVEKIT_API_SECRET: testLivekit.apiSecret,
    LIVEKIT_ROOM_PREFIX: prefix,
    ...env,
  });
  const register = (method: 'POST' | 'DELETE') =>
    fetch(`${testLivekit.relay}/register`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prefix, target: `${server.baseUrl}/api/livekit/webhook` }),
      signal: AbortSignal.timeout(5_000),
    });
  if (webhooks) expect((await register('POST')).status).toBe(204);
  return {
    ...server,
    prefix,
    rooms: new RoomServiceClient(
      livekitHttpUrl(testLivekit.url!),
      testLivekit.apiKey,
      testLivekit.apiSecret,
    ),
    async stop() {
      if (webhooks) await register('DELETE').catch(() => undefined);
      await server.close();
    },
  };
}

/** Asks the token endpoint as `person` (a fresh cookie jar over the same session). */
export async function requestToken(
  server: TestServer,
  person: Person,
  channelId: number,
): Promise<{ status: number; token?: string }> {
  const client = new TestClient(server.baseUrl);
  for (const [name, value] of person.client.cookies) client.cookies.set(name, value);
  const response = await client.request('/api/livekit-token', {
    method: 'POST',
    json: { channelId, userId: person.id, userName: person.name },
  });
  const body = (await response.json()) as { token?: string };
  return { status: response.status, token: body.token };
}

export async function tokenOf(
  server: TestServer,
  person: Person,
  channelId: number,
): Promise<string> {
  const { status, token } = await requestToken(server, person, channelId);
  expect(status).toBe(200);
  return token!;
}

/** Joins LiveKit with a token (the socket may be refused or closed at once). */
export function joinLivekit(token: string): Promise<LivekitTestParticipant> {
  return LivekitTestParticipant.join(testLivekit.url!, token);
}

/** The participant as LiveKit lists it now, if it is in the room. */
export async function listed(
  server: LivekitTestServer,
  channelId: number,
  identity: string,
): Promise<ParticipantInfo | undefined> {
  const participants = await server.rooms
    .listParticipants(`${server.prefix}${channelId}`)
    .catch(() => [] as ParticipantInfo[]);
  return participants.find((p) => p.identity === identity);
}

/** Polls until `check` holds (generous timeout: the webhook and LiveKit are asynchronous). */
export async function eventually(
  check: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
