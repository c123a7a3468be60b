import { expect, test, type Browser, type Page } from '@playwright/test';
import type { WebSocket } from 'ws';
import { AUDIBLE, CUT_AT_ONCE_MS, SILENT } from '../support/voice-audio';
import { startVoicePageHarness, type VoicePageHarness } from '../support/voice-page-harness';

/**
 * The built-in SFU in real Chromium, before the full app exists: a small Fastify server with only
 * the SFU and a harness page that bundles the real client transport. Three users; A talks (a
 * WebAudio tone as microphone), B and C must hear it through the server, A must not hear itself,
 * and an admin mute must silence A for B and C at once while A's page keeps sending.
 */
const SECRET = 'e2e-sfu-secret-e2e-sfu-secret-e2e-sfu';

test.describe.configure({ mode: 'serial' });

let harness: VoicePageHarness;
/** Server ends of sockets on the test-only `/rtc-droppable` path, so a test can cut them. */
const droppable: WebSocket[] = [];
/** While now < this, `/rtc-droppable` refuses sockets, as an unreachable server would. */
let refuseUntil = 0;

test.beforeAll(async () => {
  harness = await startVoicePageHarness({
    entry: new URL('./harness/harness-entry.ts', import.meta.url),
    secret: SECRET,
    sfu: {
      iceServers: [],
      iceTcp: true, // as the app configures it
      // Short, so the rejoin test sees a session expire while its client cannot reach the server.
      graceMs: 1_500,
    },
    routes: (app, sfu) =>
      app.get('/rtc-droppable', { websocket: true }, (socket, request) => {
        if (Date.now() < refuseUntil) {
          socket.close(1011, 'unavailable');
          return;
        }
        droppable.push(socket);
        sfu.handleSocket(socket, request);
      }),
  });
});

test.afterAll(async () => {
  await harness?.close();
});

async function openUser(
  browser: Browser,
  userId: string,
  tone: boolean,
  path = '/rtc',
  channelId = 1,
  adminMuted = false,
): Promise<Page> {
  const page = await harness.openPage(browser, {
    ready: () => 'harness' in window,
    permissions: ['microphone'],
    logErrorsAs: userId,
  });
  const token = await harness.token({ userId, channelId, adminMuted });
  await page.evaluate(([u, t, withTone]) => window.harness.connect(u, t, withTone), [
    harness.socketUrl(path),
    token,
    tone,
  ] as const);
  return page;
}

const levels = (page: Page, samples = 5) => page.evaluate((n) => window.harness.levels(n), samples);
const rtp = (page: Page) => page.evaluate(() => window.harness.rtp());

test('three users: A is heard by B and C through the SFU, not by itself, and an admin mute silences A at once', async ({
  browser,
}) => {
  const a = await openUser(browser, 'user-a', true);
  const b = await openUser(browser, 'user-b', false);
  const c = await openUser(browser, 'user-c', false);
  expect(await a.evaluate(() => window.harness.states)).toEqual(['connecting', 'connected']);

  await a.evaluate(() => window.harness.setMicrophone(true));

  // B and C receive A's audio: inbound RTP grows and the remote stream is audibly non-silent.
  for (const listener of [b, c]) {
    await expect
      .poll(async () => (await levels(listener))['user-a'] ?? 0, { timeout: 15_000 })
      .toBeGreaterThan(AUDIBLE);
    const first = (await rtp(listener)).inbound['user-a'] ?? 0;
    await listener.waitForTimeout(500);
    expect((await rtp(listener)).inbound['user-a'] ?? 0).toBeGreaterThan(first + 10);
  }
  await b.screenshot({ path: test.info().outputPath('listener-b.png') });
  // The server's speaking estimate (from Opus packet sizes) reaches the listeners.
  await expect
    .poll(() =>
      c.evaluate(() => window.harness.speaking.some((s) => s.userId === 'user-a' && s.speaking)),
    )
    .toBe(true);

  // A never gets an element, a stream or a level for itself; B and C keep their mics off.
  const aElements = await a.evaluate(() => window.harness.elements());
  expect(aElements.map((e) => e.userId).sort()).toEqual(['user-b', 'user-c']);
  const aLevels = await levels(a);
  expect(aLevels['user-a']).toBeUndefined();
  expect(Math.max(...Object.values(aLevels))).toBeLessThan(SILENT);
  expect(Object.keys((await rtp(a)).inbound)).not.toContain('user-a');

  // Admin mute: B and C go silent at once (goal 1 s), while A's page keeps sending.
  const sentBefore = (await rtp(a)).outbound;
  const mutedAt = Date.now();
  harness.sfu.setPublisherMuted('channel-1', 'user-a', true);
  let silentAfterMs = Number.POSITIVE_INFINITY;
  while (Date.now() - mutedAt < CUT_AT_ONCE_MS + 1_000) {
    // Single reads: the analyser window itself is ~43 ms of audio.
    const [lb, lc] = await Promise.all([levels(b, 1), levels(c, 1)]);
    if ((lb['user-a'] ?? 0) < SILENT && (lc['user-a'] ?? 0) < SILENT) {
      silentAfterMs = Date.now() - mutedAt;
      break;
    }
  }
  console.log(`admin mute: B and C silent after ${silentAfterMs} ms`);
  expect(silentAfterMs).toBeLessThanOrEqual(CUT_AT_ONCE_MS);
  // And they stay silent (not a momentary dip in the tone).
  for (const listener of [b, c])
    expect((await levels(listener, 6))['user-a'] ?? 0).toBeLessThan(SILENT);
  const receivedAtMute = (await rtp(b)).inbound['user-a'] ?? 0;
  await b.waitForTimeout(500);
  expect((await rtp(b)).inbound['user-a'] ?? 0).toBe(receivedAtMute);
  expect((await rtp(a)).outbound).toBeGreaterThan(sentBefore + 20);

  // Unmute brings A back.
  harness.sfu.setPublisherMuted('channel-1', 'user-a', false);
  await expect
    .poll(async () => (await levels(b))['user-a'] ?? 0, { timeout: 5_000 })
    .toBeGreaterThan(AUDIBLE);

  // Releasing the talk button (no track in the publish slot, no packets) ends "speaking".
  await a.evaluate(() => window.harness.setMicrophone(false));
  await expect
    .poll(
      () =>
        b.evaluate(
          () => window.harness.speaking.filter((s) => s.userId === 'user-a').at(-1)?.speaking,
        ),
      {
        timeout: 3_000,
      },
    )
    .toBe(false);
  await expect
    .poll(async () => (await levels(b, 1))['user-a'] ?? 1, { timeout: 2_000 })
    .toBeLessThan(SILENT);

  for (const page of [a, b, c]) await page.evaluate(() => window.harness.disconnect());
  await expect.poll(() => harness.sfu.participants('channel-1').length).toBe(0);
});

test('between talks a member sends no RTP at all, and the next talk is heard on a timeline that counts the pause', async ({
  browser,
}) => {
  /** Arrival time and timestamp of each of A's packets at the server. */
  const packets: { at: number; timestamp: number }[] = [];
  const off = harness.sfu.on('packetForwarded', (packet) => {
    if (packet.userId === 'idle-a') packets.push({ at: Date.now(), timestamp: packet.timestamp });
  });
  const a = await openUser(browser, 'idle-a', true, '/rtc', 8);
  const b = await openUser(browser, 'idle-b', false, '/rtc', 8);
  const outbound = async () => (await rtp(a)).outbound;

  // Online with the microphone captured but off: nothing leaves the browser (DTX sent ~7 packets in
  // 3 s from a disabled track).
  const idle = await outbound();
  await a.waitForTimeout(3_000);
  expect(await outbound()).toBe(idle);

  await a.evaluate(() => window.harness.setMicrophone(true));
  await expect
    .poll(async () => (await levels(b))['idle-a'] ?? 0, { timeout: 15_000 })
    .toBeGreaterThan(AUDIBLE);
  expect(await outbound()).toBeGreaterThan(idle);

  // Off again: once the last packets are out, the count stands still.
  await a.evaluate(() => window.harness.setMicrophone(false));
  await a.waitForTimeout(500);
  const between = await outbound();
  const beforePause = packets.length;
  await a.waitForTimeout(3_000);
  expect(await outbound()).toBe(between);
  expect(packets.length).toBe(beforePause);
  await expect
    .poll(async () => (await levels(b, 1))['idle-a'] ?? 1, { timeout: 2_000 })
    .toBeLessThan(SILENT);

  // On again: heard, and the first packet is stamped as late as it came (Chrome's RTP clock stood
  // still while the slot was empty; a listener's jitter buffer would take it for seconds late).
  await a.evaluate(() => window.harness.setMicrophone(true));
  await expect
    .poll(async () => (await levels(b))['idle-a'] ?? 0, { timeout: 15_000 })
    .toBeGreaterThan(AUDIBLE);
  const [last, first] = [packets[beforePause - 1]!, packets[beforePause]!];
  const timestampGapMs = ((first.timestamp - last.timestamp) >>> 0) / 48;
  expect(first.at - last.at).toBeGreaterThan(3_000);
  expect(Math.abs(timestampGapMs - (first.at - last.at))).toBeLessThan(100);

  off();
  for (const page of [a, b]) await page.evaluate(() => window.harness.disconnect());
});

test('a dropped signalling socket is resumed while audio keeps playing', async ({ browser }) => {
  const a = await openUser(browser, 'resume-a', true, '/rtc-droppable', 2);
  const b = await openUser(browser, 'resume-b', false, '/rtc-droppable', 2);
  await a.evaluate(() => window.harness.setMicrophone(true));
  await expect
    .poll(async () => (await levels(b))['resume-a'] ?? 0, { timeout: 15_000 })
    .toBeGreaterThan(AUDIBLE);
  const identitiesBefore = harness.sfu
    .participants('channel-2')
    .map((p) => p.identity)
    .sort();

  // Cut B's signalling socket without a close handshake, as a network drop would.
  droppable[droppable.length - 1]?.terminate();
  await expect
    .poll(() => b.evaluate(() => window.harness.states.slice(-2)), { timeout: 10_000 })
    .toEqual(['signalReconnecting', 'connected']);
  // Same session (no rejoin), audio never stopped, and the resumed socket carries signalling again.
  expect(await b.evaluate(() => window.harness.states)).not.toContain('reconnecting');
  expect(
    harness.sfu
      .participants('channel-2')
      .map((p) => p.identity)
      .sort(),
  ).toEqual(identitiesBefore);
  expect((await levels(b))['resume-a'] ?? 0).toBeGreaterThan(AUDIBLE);
  harness.sfu.setPublisherMuted('channel-2', 'resume-a', true);
  await expect
    .poll(async () => (await levels(b, 1))['resume-a'] ?? 1, { timeout: 2_000 })
    .toBeLessThan(SILENT);

  for (const page of [a, b]) await page.evaluate(() => window.harness.disconnect());
});

test('when resuming is impossible the client rejoins with its token and hears again', async ({
  browser,
}) => {
  const a = await openUser(browser, 'rejoin-a', true, '/rtc-droppable', 3);
  const b = await openUser(browser, 'rejoin-b', false, '/rtc-droppable', 3);
  await a.evaluate(() => window.harness.setMicrophone(true));
  await expect
    .poll(async () => (await levels(b))['rejoin-a'] ?? 0, { timeout: 15_000 })
    .toBeGreaterThan(AUDIBLE);
  const bIdentity = harness.sfu
    .participants('channel-3')
    .find((p) => p.userId === 'rejoin-b')?.identity;

  // B's socket drops and the server stays unreachable longer than the session's grace period.
  refuseUntil = Date.now() + 2_500;
  droppable[droppable.length - 1]?.terminate();
  await expect
    .poll(() => b.evaluate(() => window.harness.states.slice(-3)), { timeout: 20_000 })
    .toEqual(['signalReconnecting', 'reconnecting', 'connected']);
  expect(harness.sfu.participants('channel-3').find((p) => p.userId === 'rejoin-b')?.identity).toBe(
    bIdentity,
  );
  await expect
    .poll(async () => (await levels(b))['rejoin-a'] ?? 0, { timeout: 10_000 })
    .toBeGreaterThan(AUDIBLE);
  expect(await b.evaluate(() => window.harness.elements().map((e) => e.userId))).toEqual([
    'rejoin-a',
  ]);

  for (const page of [a, b]) await page.evaluate(() => window.harness.disconnect());
});

test('an ICE restart moves media to fresh credentials without interrupting it', async ({
  browser,
}) => {
  const a = await openUser(browser, 'ice-a', true, '/rtc', 4);
  const b = await openUser(browser, 'ice-b', false, '/rtc', 4);
  await a.evaluate(() => window.harness.setMicrophone(true));
  await expect
    .poll(async () => (await levels(b))['ice-a'] ?? 0, { timeout: 15_000 })
    .toBeGreaterThan(AUDIBLE);
  const before = await b.evaluate(() => window.harness.selectedLocalUfrag());
  expect(before).toBeTruthy();

  await b.evaluate(() => window.harness.requestIceRestart());
  await expect
    .poll(() => b.evaluate(() => window.harness.selectedLocalUfrag()), { timeout: 10_000 })
    .not.toBe(before);
  const received = (await rtp(b)).inbound['ice-a'] ?? 0;
  await b.waitForTimeout(500);
  expect((await rtp(b)).inbound['ice-a'] ?? 0).toBeGreaterThan(received + 10);
  expect((await levels(b))['ice-a'] ?? 0).toBeGreaterThan(AUDIBLE);
  expect(await b.evaluate(() => window.harness.states)).toEqual(['connecting', 'connected']);

  for (const page of [a, b]) await page.evaluate(() => window.harness.disconnect());
});

/**
 * Runs before the harness page: its peer connections see no UDP candidate of the server (as behind
 * a firewall that lets only TCP out), so ICE can only pick the SFU's ICE-TCP candidate.
 */
function tcpOnly(): void {
  const w = window as unknown as { __peers: RTCPeerConnection[] };
  w.__peers = [];
  const isUdp = (line: string) => / udp /i.test(line);
  const Original = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends Original {
    constructor(config?: RTCConfiguration) {
      super(config);
      w.__peers.push(this);
    }
    override setRemoteDescription(description: RTCSessionDescriptionInit): Promise<void> {
      const sdp = description.sdp
        ?.split('\r\n')
        .filter((line) => !(line.startsWith('a=candidate:') && isUdp(line)))
        .join('\r\n');
      return super.setRemoteDescription({ type: description.type, sdp });
    }
    override addIceCandidate(candidate?: RTCIceCandidateInit | null): Promise<void> {
      if (candidate?.candidate && isUdp(candidate.candidate)) return Promise.resolve();
      return super.addIceCandidate(candidate ?? undefined);
    }
  };
}

test('a listener that can reach the server only over TCP hears the talker (ICE-TCP)', async ({
  browser,
}) => {
  const a = await openUser(browser, 'tcp-a', true, '/rtc', 6);
  const b = await harness.openPage(browser, {
    ready: () => 'harness' in window,
    permissions: ['microphone'],
    logErrorsAs: 'tcp-b',
    prepare: async (context) => {
      await context.addInitScript(tcpOnly);
    },
  });
  await b.evaluate(([u, t]) => window.harness.connect(u, t, false), [
    harness.socketUrl('/rtc'),
    await harness.token({ userId: 'tcp-b', channelId: 6 }),
  ] as const);
  await a.evaluate(() => window.harness.setMicrophone(true));
  await expect
    .poll(async () => (await levels(b))['tcp-a'] ?? 0, { timeout: 20_000 })
    .toBeGreaterThan(AUDIBLE);
  // The media really crossed TCP: the selected pair's local candidate is a TCP one.
  const protocol = await b.evaluate(async () => {
    const peers = (window as unknown as { __peers: RTCPeerConnection[] }).__peers;
    for (const peer of peers) {
      const stats = await peer.getStats();
      let pairId: string | undefined;
      stats.forEach((report: { type: string; selectedCandidatePairId?: string }) => {
        if (report.type === 'transport' && report.selectedCandidatePairId)
          pairId = report.selectedCandidatePairId;
      });
      const pair = pairId ? (stats.get(pairId) as { localCandidateId?: string }) : undefined;
      const local = pair?.localCandidateId
        ? (stats.get(pair.localCandidateId) as { protocol?: string })
        : undefined;
      if (local?.protocol) return local.protocol;
    }
    return undefined;
  });
  expect(protocol).toBe('tcp');
  for (const page of [a, b]) await page.evaluate(() => window.harness.disconnect());
});

test('a user whose token has no publish right cannot talk, and nobody gets audio from them', async ({
  browser,
}) => {
  const muted = await openUser(browser, 'no-publish', true, '/rtc', 5, true);
  const listener = await openUser(browser, 'hears-nothing', false, '/rtc', 5);
  expect(await muted.evaluate(() => window.harness.microphoneError())).toBe('forbidden');
  await listener.waitForTimeout(1_000);
  expect(await listener.evaluate(() => window.harness.elements())).toEqual([]);
  // The muted user still hears the channel.
  expect((await muted.evaluate(() => window.harness.elements())).map((e) => e.userId)).toEqual([
    'hears-nothing',
  ]);
  // With no publish slot, the placeholder data channel is what brought the connection up.
  expect(await muted.evaluate(() => window.harness.sctpAssociations())).toEqual([true]);
  for (const page of [muted, listener]) await page.evaluate(() => window.harness.disconnect());
});

test('Chromium’s consent checks are answered by the receive thread, off the event loop, and audio keeps flowing', async ({
  browser,
}) => {
  const before = harness.sfu.stats().consentAnswersOffLoop;
  const talker = await openUser(browser, 'consent-a', true, '/rtc', 7);
  const listener = await openUser(browser, 'consent-b', false, '/rtc', 7);
  await talker.evaluate(() => window.harness.setMicrophone(true));
  await expect
    .poll(async () => (await levels(listener))['consent-a'] ?? 0, { timeout: 15_000 })
    .toBeGreaterThan(AUDIBLE);
  // Each browser checks its selected pair every few seconds; the first check of each is answered by
  // JavaScript, which arms the thread for the rest.
  await expect
    .poll(() => harness.sfu.stats().consentAnswersOffLoop - before, { timeout: 20_000 })
    .toBeGreaterThanOrEqual(2);
  // Members who may talk are connected by their publish slot: no SCTP association whose
  // heartbeats (every 30 s, each way) would wake the server for as long as they stay idle.
  for (const page of [talker, listener])
    expect(await page.evaluate(() => window.harness.sctpAssociations())).toEqual([false]);
  await expect
    .poll(async () => (await levels(listener))['consent-a'] ?? 0, { timeout: 5_000 })
    .toBeGreaterThan(AUDIBLE);
  for (const page of [talker, listener]) await page.evaluate(() => window.harness.disconnect());
});
