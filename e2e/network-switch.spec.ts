import { randomBytes } from 'node:crypto';
import type { BrowserContext, Page, Request } from '@playwright/test';
import { newPerson } from './support/accounts';
import { expect, test } from './support/fixtures';
import { startImpairmentRelay, type ImpairmentRelay } from './support/network/impairment-relay';
import {
  heardAgainAt,
  logSignalling,
  openRouted,
  switchNetwork,
  watchReturn,
} from './support/network/network-switch';
import { AUDIBLE, channelWith, goOnline, levelFrom, open, userId } from './support/voice-audio';

/**
 * A phone that hops from Wi-Fi to mobile data mid-conversation (issue 28, "a changing network").
 * The talker's WebRTC runs through a user-space relay; the switch moves the relay link, so the old
 * path silently drops everything, and the browser sees its network go and come back. The voice must
 * come back by an ICE restart on the same connection: no new join on the voice server, no second
 * usage session, no second peer connection for a call. The time it takes is the bench's to print
 * (`bench/networks/network-switch.bench.ts`).
 */

test.describe.configure({ timeout: 120_000 });

let relay: ImpairmentRelay;
test.beforeEach(() => {
  relay = startImpairmentRelay();
});
test.afterEach(async () => {
  await relay.close();
});

const LINK = 'phone';

/** Requests the page makes to open a usage session (the client's metered voice connection). */
function usageStarts(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/usage/session/start'))
      seen.push(request);
  });
  return seen;
}

test('built-in SFU: after a network switch the listener hears the talker again, without a rejoin', async ({
  browser,
  baseURL,
}) => {
  const talker = await openRouted(browser, newPerson('Tala'), relay, LINK);
  const listener = await open(browser, newPerson('Lee'), 'tone');
  const listenerSignalling = logSignalling(listener.page);
  await channelWith(browser, baseURL!, [talker, listener]);
  const talkerId = await userId(talker.page);
  const talkerUsage = usageStarts(talker.page);

  await goOnline(talker.page);
  await goOnline(listener.page);
  for (const { page } of [talker, listener])
    await expect(page.getByText('Voice Ready', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect
    .poll(() => levelFrom(listener.page, talkerId), { timeout: 15_000 })
    .toBeGreaterThan(AUDIBLE);
  // Everything the talker sends crosses the relay: there is no other path.
  expect(relay.counters(LINK).up.packets).toBeGreaterThan(20);
  const joinsBefore = talker.signalling.sent.filter((type) => type === 'join').length;
  expect(joinsBefore).toBe(1);

  await watchReturn(listener.page, { channelMember: talkerId }, AUDIBLE);
  const oldPorts = relay.ports(LINK);
  await switchNetwork(talker.context, relay, LINK);
  // The move killed every old path (the browser may already be opening a new one).
  expect(relay.ports(LINK).filter((port) => oldPorts.includes(port))).toEqual([]);

  await expect.poll(() => heardAgainAt(listener.page), { timeout: 20_000 }).not.toBeNull();
  // It came back on a new path of the relay (the old ports are dead), by an ICE restart…
  expect(relay.ports(LINK).length).toBeGreaterThan(0);
  expect(relay.ports(LINK)).not.toEqual(oldPorts);
  expect(talker.signalling.sent).toContain('restart_ice');
  // …on the same session: no second join, the listener never saw the talker leave, one usage session.
  expect(talker.signalling.sent.filter((type) => type === 'join')).toHaveLength(1);
  expect(talker.signalling.sent).not.toContain('resume');
  expect(listenerSignalling.received).not.toContain('participant_left');
  expect(talkerUsage).toHaveLength(1);
  await expect(talker.page.getByText('Voice Ready', { exact: true })).toBeVisible();

  for (const user of [talker, listener]) await user.context.close();
});

/** Counts the peer connections the page creates (before the app loads). */
function countPeers(): void {
  const holder = window as unknown as { __peerCount: number };
  holder.__peerCount = 0;
  const Original = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends Original {
    constructor(config?: RTCConfiguration) {
      super(config);
      holder.__peerCount++;
    }
  };
}

const peerCount = (page: Page) =>
  page.evaluate(() => (window as unknown as { __peerCount: number }).__peerCount);

test('one-to-one call: after the caller switches network the callee hears her again on the same call', async ({
  browser,
}) => {
  const tag = randomBytes(3).toString('hex');
  // Both browsers on the same link: each reaches the other only through the relay.
  const prepare = async (context: BrowserContext) => {
    await context.addInitScript(countPeers);
  };
  const callee = await openRouted(browser, newPerson('Cole', `N${tag}`), relay, LINK, { prepare });
  const caller = await openRouted(browser, newPerson('Cara', `N${tag}`), relay, LINK, { prepare });
  // The callee's socket must be open before the first ring.
  await callee.page.waitForTimeout(500);
  const callButton = caller.page.getByRole('button', { name: `Call ${callee.person.name}` });
  await expect(async () => {
    if (!(await callButton.isVisible()))
      await caller.page.getByRole('button', { name: 'Contacts' }).click();
    await callButton.click({ timeout: 3000 });
    await expect(caller.page.getByTestId('active-call')).toBeVisible({ timeout: 1500 });
  }).toPass({ timeout: 20_000 });
  await expect(callee.page.getByTestId('incoming-call')).toBeVisible();
  await callee.page.getByRole('button', { name: 'Accept call' }).click();
  for (const { page } of [caller, callee])
    await expect(page.getByText('Connected', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => callLevel(callee.page), { timeout: 15_000 }).toBeGreaterThan(AUDIBLE);
  expect([await peerCount(caller.page), await peerCount(callee.page)]).toEqual([1, 1]);

  await watchReturn(callee.page, { call: true }, AUDIBLE);
  const oldPorts = relay.ports(LINK);
  await switchNetwork(caller.context, relay, LINK);
  await expect.poll(() => heardAgainAt(callee.page), { timeout: 20_000 }).not.toBeNull();
  // The same call on the same peer connections, now on new relay ports.
  expect(relay.ports(LINK).length).toBeGreaterThan(0);
  expect(relay.ports(LINK)).not.toEqual(oldPorts);
  expect([await peerCount(caller.page), await peerCount(callee.page)]).toEqual([1, 1]);
  for (const { page } of [caller, callee]) {
    await expect(page.getByTestId('active-call')).toBeVisible();
    await expect(page.getByText('Connected', { exact: true })).toBeVisible();
  }
  for (const user of [caller, callee]) await user.context.close();
});

/** The loudest RMS level of the call's remote audio over a short window. */
function callLevel(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const audio = document.querySelector<HTMLAudioElement>('audio[data-call-remote-audio]');
    if (!(audio?.srcObject instanceof MediaStream)) return 0;
    const context = new AudioContext();
    const analyser = context.createAnalyser();
    analyser.fftSize = 2048;
    context.createMediaStreamSource(audio.srcObject).connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    let loudest = 0;
    for (let i = 0; i < 10; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      analyser.getFloatTimeDomainData(samples);
      loudest = Math.max(
        loudest,
        Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / samples.length),
      );
    }
    await context.close();
    return loudest;
  });
}
