import type { Page, WebSocketRoute } from '@playwright/test';
import { AccessToken, RoomServiceClient, TokenVerifier, TrackSource } from 'livekit-server-sdk';
import pg from 'pg';
import { newPerson } from './support/accounts';
import { expect, test } from './support/fixtures';
import {
  AUDIBLE,
  channelWith,
  goOffline,
  goOnline,
  levelFrom,
  open,
  userId,
  voiceReady,
} from './support/voice-audio';

/**
 * What only LiveKit has: its webhooks meter usage, its token refresh carries a connection past the
 * token's lifetime, and the page's CSP must let the browser reach it. Runs in the `livekit` project
 * (playwright.config.ts), against the project's own LiveKit server and PostgreSQL database.
 */
const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is set by playwright.config.ts for the livekit project`);
  return value;
};

/** LiveKit accepts a token this long after its expiry. */
const LEEWAY_S = 60;

type UsageRow = {
  id: string;
  voice_connection: string | null;
  voice_identity: string | null;
  ended_at: Date | null;
  end_reason: string | null;
};

async function usageRowsOf(userIdValue: string): Promise<UsageRow[]> {
  const client = new pg.Client({ connectionString: env('E2E_LK_DATABASE_URL') });
  await client.connect();
  try {
    const { rows } = await client.query<UsageRow>(
      'select id, voice_connection, voice_identity, ended_at, end_reason from usage_sessions where user_id = $1 order by started_at',
      [userIdValue],
    );
    return rows;
  } finally {
    await client.end();
  }
}

/**
 * Notes the page's connect-src violations (a refused connection to LiveKit is what users met as
 * "Failed to connect to voice room"). Other directives are not this test's business: zod's
 * feature probe for eval is reported as a script-src violation on every page.
 */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      if (event.effectiveDirective === 'connect-src')
        seen.push(`${event.blockedURI} ${event.sourceFile}`);
    });
  });
  return () =>
    page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

test.describe('LiveKit only', { tag: '@livekit' }, () => {
  test("LiveKit's webhooks open and close usage rows, also for a client that never reports its session", async ({
    browser,
    baseURL,
  }, testInfo) => {
    const a = await open(browser, newPerson('Abe'), 'tone');
    const b = await open(browser, newPerson('Bea'), 'tone');
    const violations = await watchCsp(b.page);
    await b.page.reload();
    // A's client never tells the server it started a session (as a modified client could): the
    // server must meter A from LiveKit's word alone.
    await a.page.route('**/api/usage/session/start', (route) =>
      route.fulfill({ json: { sessionId: 'never-reported' } }),
    );
    await channelWith(browser, baseURL!, [a, b]);
    const [aId, bId] = [await userId(a.page), await userId(b.page)];
    const bSession = b.page.waitForResponse((res) =>
      res.url().endsWith('/api/usage/session/start'),
    );

    await goOnline(a.page);
    await goOnline(b.page);
    for (const user of [a, b]) await expect(voiceReady(user.page)).toBeVisible({ timeout: 20_000 });
    const { sessionId: bSessionId } = (await (await bSession).json()) as { sessionId: string };
    await expect.poll(() => levelFrom(b.page, aId), { timeout: 15_000 }).toBeGreaterThan(AUDIBLE);
    await b.page.screenshot({
      path: testInfo.outputPath('livekit-voice-connected.png'),
      fullPage: true,
    });

    // participant_joined: A has a row of the server's own, B's client row was claimed by LiveKit's report.
    await expect
      .poll(async () =>
        (await usageRowsOf(aId)).map((r) => [r.voice_connection?.startsWith('PA_'), r.ended_at]),
      )
      .toEqual([[true, null]]);
    expect((await usageRowsOf(aId))[0]!.voice_identity?.startsWith(`${aId}-`)).toBe(true);
    await expect
      .poll(async () =>
        (await usageRowsOf(bId)).map((r) => [r.id, r.voice_connection?.startsWith('PA_')]),
      )
      .toEqual([[bSessionId, true]]);

    // participant_left closes both, whatever the clients said.
    await goOffline(a.page);
    await goOffline(b.page);
    for (const id of [aId, bId])
      await expect
        .poll(async () => (await usageRowsOf(id)).map((r) => [r.end_reason, r.ended_at !== null]), {
          timeout: 15_000,
        })
        .toEqual([['voice-left', true]]);
    expect(await violations()).toEqual([]);
    await a.context.close();
    await b.context.close();
  });

  test('a connection outlives its 10-minute token: a reconnect after expiry uses the token LiveKit refreshed', async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const key = env('E2E_LK_API_KEY');
    const secret = env('E2E_LK_API_SECRET');
    const a = await open(browser, newPerson('Ari'), 'tone');
    const b = await open(browser, newPerson('Bex'), 'tone');
    await channelWith(browser, baseURL!, [a, b]);
    const aId = await userId(a.page);

    // Ten minutes cannot pass in a test: A's token is re-signed with the same grants and a life that
    // ends 15 s from now, counting LiveKit's 60 s leeway on expiry (protocol/auth tokenLeeway), i.e.
    // A is a session whose token is about to run out.
    let tokenRequests = 0;
    let shortToken = '';
    let mintedAt = 0;
    await a.page.route('**/api/livekit-token', async (route) => {
      tokenRequests++;
      const response = await route.fetch();
      const body = (await response.json()) as { token: string };
      const claims = await new TokenVerifier(key, secret).verify(body.token);
      const short = new AccessToken(key, secret, {
        identity: claims.sub,
        name: claims.name,
        ttl: -(LEEWAY_S - 15),
      });
      mintedAt = Date.now();
      // A verified token names its sources as strings; a grant to sign takes the SDK's enum.
      const sources: Record<string, TrackSource> = {
        camera: TrackSource.CAMERA,
        microphone: TrackSource.MICROPHONE,
        screen_share: TrackSource.SCREEN_SHARE,
        screen_share_audio: TrackSource.SCREEN_SHARE_AUDIO,
      };
      const video = claims.video!;
      short.addGrant({
        ...video,
        canPublishSources: video.canPublishSources?.map((source) => sources[String(source)]!),
      });
      shortToken = await short.toJwt();
      await route.fulfill({ response, json: { ...body, token: shortToken } });
    });
    // A's signalling socket to LiveKit passes through until the test cuts it.
    const sockets: { page: WebSocketRoute; server: WebSocketRoute }[] = [];
    await a.page.routeWebSocket(
      (url) => url.port === env('E2E_LK_PORT') && url.pathname.startsWith('/rtc'),
      (ws) => {
        sockets.push({ page: ws, server: ws.connectToServer() });
      },
    );
    let sessionEnds = 0;
    a.page.on('request', (request) => {
      if (request.url().endsWith('/api/usage/session/end')) sessionEnds++;
    });

    await goOnline(a.page);
    await goOnline(b.page);
    for (const user of [a, b]) await expect(voiceReady(user.page)).toBeVisible({ timeout: 20_000 });
    await expect.poll(() => levelFrom(b.page, aId), { timeout: 15_000 }).toBeGreaterThan(AUDIBLE);
    expect(tokenRequests).toBe(1);
    const room = `${env('E2E_LK_ROOM_PREFIX')}${await channelIdOf(a.page)}`;
    const rooms = new RoomServiceClient(`http://127.0.0.1:${env('E2E_LK_PORT')}`, key, secret);
    const identityOfA = async () =>
      (await rooms.listParticipants(room))
        .map((p) => p.identity)
        .filter((id) => id.startsWith(`${aId}-`));
    const [identity] = await identityOfA();

    // Past the token's life, the signalling connection drops.
    await a.page.waitForTimeout(Math.max(0, mintedAt + 17_000 - Date.now()));
    await expect(new TokenVerifier(key, secret).verify(shortToken, LEEWAY_S)).rejects.toThrow();
    const live = sockets.splice(0);
    for (const socket of live) {
      await socket.server.close();
      await socket.page.close({ code: 1006, reason: 'network gone' });
    }

    // The connection resumes by itself: same participant, no new token asked of Chirp, no session
    // ended, and B hears A.
    await expect.poll(() => sockets.length, { timeout: 15_000 }).toBeGreaterThan(0);
    await expect(voiceReady(a.page)).toBeVisible({ timeout: 20_000 });
    await expect.poll(() => levelFrom(b.page, aId), { timeout: 15_000 }).toBeGreaterThan(AUDIBLE);
    expect(await identityOfA()).toEqual([identity]);
    expect(tokenRequests).toBe(1);
    expect(sessionEnds).toBe(0);
    await a.context.close();
    await b.context.close();
  });
});

async function channelIdOf(page: Page): Promise<number> {
  const channels = (await (await page.request.get('/api/channels')).json()) as { id: number }[];
  return channels[0]!.id;
}
