import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  seededRandom,
  startImpairmentRelay,
  type ImpairmentRelay,
} from '../support/network/impairment-relay';
import { routeThroughRelay } from '../support/network/relay-routing';
import { AUDIBLE } from '../support/voice-audio';
import { startVoicePageHarness, type VoicePageHarness } from '../support/voice-page-harness';

/**
 * The built-in SFU on a lossy network, in real Chromium: the listener's WebRTC runs through the
 * project's user-space UDP relay, which loses 10 % of its packets at random (both ways). The SFU
 * offers Opus RED and NACK: once the listener's browser reports a loss, each packet it gets also
 * carries the frames before it, and the packets it reports lost are sent again, so a lost packet's
 * audio is rebuilt instead of being concealed (guessed) by the decoder. Without RED, 10 % loss
 * conceals 10 % of the samples or more.
 */
const SECRET = 'e2e-lossy-secret-e2e-lossy-secret-e2e-lossy';
const LOSS = 0.1;

test.describe.configure({ mode: 'serial' });

let harness: VoicePageHarness;
let relay: ImpairmentRelay;

test.beforeAll(async () => {
  relay = startImpairmentRelay({ random: seededRandom(7) });
  harness = await startVoicePageHarness({
    entry: new URL('./harness/harness-entry.ts', import.meta.url),
    secret: SECRET,
    sfu: { iceServers: [] },
  });
});

test.afterAll(async () => {
  await harness?.close();
  await relay?.close();
});

async function openUser(browser: Browser, userId: string, link?: string): Promise<Page> {
  const page = await harness.openPage(browser, {
    ready: () => 'harness' in window,
    permissions: ['microphone'],
    logErrorsAs: userId,
    prepare: link ? (context) => routeThroughRelay(context, relay, link) : undefined,
  });
  const token = await harness.token({ userId, channelId: 1 });
  await page.evaluate(([u, t, tone]) => window.harness.connect(u, t, tone), [
    harness.socketUrl('/rtc'),
    token,
    !link,
  ] as const);
  return page;
}

const quality = (page: Page) => page.evaluate(() => window.harness.audioQuality());

test('at 10 % packet loss the listener gets Opus RED, lost packets again, and conceals little', async ({
  browser,
}) => {
  const talker = await openUser(browser, 'talker');
  const listener = await openUser(browser, 'listener', 'listener');
  await talker.evaluate(() => window.harness.setMicrophone(true));
  await expect
    .poll(async () => (await listener.evaluate(() => window.harness.levels()))['talker'] ?? 0, {
      timeout: 15_000,
    })
    .toBeGreaterThan(AUDIBLE);

  relay.setConditions('listener', { loss: LOSS });
  const before = await quality(listener);
  const carried = relay.counters('listener').down;
  await talker.waitForTimeout(8_000);
  const after = await quality(listener);
  const counters = relay.counters('listener').down;

  // The relay really lost packets on the way to the listener...
  const lost = (counters.dropped - carried.dropped) / (counters.packets - carried.packets);
  expect(lost).toBeGreaterThan(0.06);
  // ...both browsers answered the SFU's offers with RED first on both their audio m-lines: their
  // own publish slot (so they send RED) and the other's audio (so they take RED)...
  expect((await quality(talker)).answeredCodecs).toEqual(['red', 'red']);
  expect(after.answeredCodecs).toEqual(['red', 'red']);
  // ...the listener's browser asked for lost packets again (NACK, which the SFU offers)...
  expect(after.nackCount - before.nackCount).toBeGreaterThan(0);
  // ...and the SFU sent them again: most of what the relay dropped still reached the browser. (Each
  // resend crosses the same 10 % loss; without resends the browser misses about every drop.)
  const dropped = counters.dropped - carried.dropped;
  expect(after.packetsLost - before.packetsLost).toBeLessThan(dropped * 0.5);
  // ...and the listener's decoder had to invent under 6 % of what it played: 10 % or more without
  // RED; with it ~1 % on a quiet machine, up to ~4 % when a loaded machine starves the browser.
  const received = after.totalSamplesReceived - before.totalSamplesReceived;
  const concealed = after.concealedSamples - before.concealedSamples;
  expect(received).toBeGreaterThan(48_000 * 6);
  expect(concealed / received).toBeLessThan(0.06);
  await listener.evaluate(() => window.harness.disconnect());
  await talker.evaluate(() => window.harness.disconnect());
});
