import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Locator, Page, Request } from '@playwright/test';
import { SOS_COUNTDOWN_MS, SOS_HOLD_MS } from '../protocol/sos';
import { newPerson } from './support/accounts';
import { seriousViolations } from './support/axe';
import { expect, signInAndOpen, test, type SignedInUser } from './support/fixtures';
import { installOutputProbe, outputLevel, watchOutput } from './support/output-probe';
import { turnOn, usePushService } from './support/push-device';
import {
  AUDIBLE,
  SILENT,
  channelWithAdmin,
  floorStatus,
  goOnline,
  levelFrom,
  open,
  userId,
  voiceReady,
  watchHeard,
} from './support/voice-audio';

/**
 * Family SOS (issue 30, decision 050) in Chromium with real audio, on the built-in SFU and on
 * LiveKit (the `livekit` project runs the tests tagged @livekit). Ava holds SOS and cancels the
 * countdown once (nothing is sent), then lets it run: Ben, online with Mute Channel on, hears her at
 * full volume although Cid holds the floor of the walkie-talkie channel; Dee, whose Chirp is closed,
 * gets the push (through a local push service, the one stand-in) and, opening it, sees the alert
 * with the location the browser gave Ava and plays the kept audio; Ben answers "I'm on it" and Ava
 * sees it; Ava marks it resolved and the alert closes everywhere. Prints countdown end → heard.
 */
test.describe.configure({ timeout: 180_000 });

const push = usePushService();

/** Unique names: the Contacts list shows every user, and parallel tests add many. */
const someone = (first: string) => newPerson(first, `S${randomBytes(3).toString('hex')}`);

/** Where the test says Ava is: the browser's Geolocation answers this (context.setGeolocation). */
const AVA_AT = { latitude: 52.52008, longitude: 13.40495, accuracy: 25 };

/**
 * Resolves what the sender left open. The server's owner is a member of every test's channel, and
 * an open SOS covers their screen in every other test running beside this one: one failure here
 * must not fail those too.
 */
let resolveLeftOpen: (() => Promise<void>) | undefined;
test.afterEach(async () => {
  await resolveLeftOpen?.().catch(() => undefined);
  resolveLeftOpen = undefined;
});

async function resolveOpenAlertsOf(request: APIRequestContext, baseURL: string): Promise<void> {
  const open = (await (await request.get('/api/sos')).json()) as { id: string }[];
  for (const { id } of open)
    await request.post(`/api/sos/${id}/resolve`, { headers: { origin: baseURL } });
}

const sosButton = (page: Page) => page.getByRole('button', { name: /^SOS to / });

/** Holds the SOS button with the pointer for `ms`, as a finger would. */
async function holdSos(page: Page, ms: number): Promise<void> {
  const button = sosButton(page);
  await button.hover();
  await page.mouse.down();
  await page.waitForTimeout(ms);
  await page.mouse.up();
}

const countdownOf = (page: Page): Locator => page.getByRole('alertdialog', { name: /Sending SOS/ });
const alertOf = (page: Page, senderName: string): Locator =>
  page.getByRole('alertdialog', { name: `SOS from ${senderName}` });

test('SOS: a cancelled countdown sends nothing; then Ava cuts through the floor, Ben hears her through Mute Channel, Dee gets the push and the alert with her location and audio, Ben is on it @livekit', async ({
  browser,
  baseURL,
}, testInfo) => {
  const ava = await open(browser, someone('Ava'), 'tone');
  resolveLeftOpen = () => resolveOpenAlertsOf(ava.context.request, baseURL!);
  const ben = await open(browser, someone('Ben'), 'tone');
  const cid = await open(browser, someone('Cid'), 'tone');
  await ben.context.addInitScript(installOutputProbe);
  await ava.context.grantPermissions(['microphone', 'geolocation'], { origin: baseURL! });
  await ava.context.setGeolocation(AVA_AT);

  // Dee's phone: notifications on, then Chirp closed.
  const dee = { person: someone('Dee'), device: await push.newDevice(browser, baseURL!) };
  const deePage = await dee.device.context.newPage();
  await signInAndOpen(deePage, dee.person);
  await turnOn(deePage);
  await deePage.goto('/');
  const deeUser = {
    person: dee.person,
    context: dee.device.context,
    page: deePage,
  } satisfies SignedInUser;

  const { id: channelId, owner } = await channelWithAdmin(browser, baseURL!, [
    ava,
    ben,
    cid,
    deeUser,
  ]);
  await deePage.close();
  const headers = { origin: baseURL! };
  const walkie = await owner.page.request.put(`/api/channels/${channelId}/talk-mode`, {
    data: { talkMode: 'walkie', maxTransmissionSeconds: 60 },
    headers,
  });
  expect(walkie.ok()).toBe(true);
  const sos = await owner.page.request.put(`/api/channels/${channelId}/sos`, {
    data: { sos: true, sosSeconds: 10 },
    headers,
  });
  expect(await sos.json()).toEqual({ sos: true, sosSeconds: 10 });
  await owner.context.close();
  const ids = { ava: await userId(ava.page), cid: await userId(cid.page) };

  // Every member sees SOS, online or not.
  for (const person of [ava, ben, cid]) await expect(sosButton(person.page)).toBeVisible();

  // Ben and Cid listen; Ben turns the channel off (Mute Channel); Cid holds the floor.
  for (const person of [ben, cid]) {
    await goOnline(person.page);
    await expect(voiceReady(person.page)).toBeVisible({ timeout: 20_000 });
    await person.page.locator('body').click({ position: { x: 5, y: 5 } });
  }
  await ben.page.getByRole('button', { name: 'Mute Channel' }).click();
  await cid.page.keyboard.down('Space');
  await expect(floorStatus(ben.page)).toContainText(cid.person.name.split(' ')[0]!);
  await expect
    .poll(() => levelFrom(ben.page, ids.cid), { timeout: 15_000 })
    .toBeGreaterThan(AUDIBLE);
  // Mute Channel: Cid's voice reaches Ben's page but not his speakers.
  await expect.poll(() => outputLevel(ben.page), { timeout: 10_000 }).toBeLessThan(SILENT);

  // Ava, offline: a short press does nothing; a hold starts the countdown; Cancel sends nothing.
  const raises: Request[] = [];
  ava.page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/sos')
      raises.push(request);
  });
  await holdSos(ava.page, 300);
  await expect(countdownOf(ava.page)).toBeHidden();
  await holdSos(ava.page, SOS_HOLD_MS + 300);
  const countdown = countdownOf(ava.page);
  await expect(countdown).toBeVisible();
  // At once: the countdown lasts 5 s, and a loaded machine once took longer than that to check it
  // with axe (the next test does that, with the raise held back).
  await countdown.getByRole('button', { name: 'Cancel' }).click();
  await expect(countdown).toBeHidden();
  await ava.page.waitForTimeout(SOS_COUNTDOWN_MS + 1000);
  expect(raises).toHaveLength(0);

  // Now she lets it run. Ben's page notes, itself, when her voice first arrives.
  const heardAt = await watchHeard(ben.page, ids.ava);
  await holdSos(ava.page, SOS_HOLD_MS + 300);
  await expect(countdownOf(ava.page)).toBeVisible();
  const raised = await ava.page.waitForRequest(
    (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/sos',
    { timeout: SOS_COUNTDOWN_MS + 5000 },
  );
  expect(raised.postDataJSON()).toEqual({ channelId });
  await raised.response();
  // The browser's own clock when the raise went out: the countdown's end.
  const countdownEnded = raised.timing().startTime;

  // Ava's voice reaches Ben's page, and Cid's stops there (the floor is hers).
  const arrivedAt = await heardAt();
  expect(arrivedAt, "Ava's voice at Ben's page").toBeDefined();
  console.log(
    `SOS [${testInfo.project.name}]: countdown end → Ava's voice at Ben's page ${Math.round(arrivedAt! - countdownEnded)} ms (goal ≤ 1000)`,
  );
  await expect.poll(() => levelFrom(ben.page, ids.cid), { timeout: 5000 }).toBeLessThan(SILENT);
  // And his speakers play her, through Mute Channel. Every voice here is the same 440 Hz tone, so
  // with Cid silent at his page, 440 Hz at his output is Ava (the SOS alarm is 1320/880 Hz, which a
  // 250 ms window keeps apart from 440 Hz).
  const voiceAtSpeakers = await watchOutput(ben.page, 1500, { hz: 440, seconds: 0.25 });
  expect((await voiceAtSpeakers()).level).toBeGreaterThan(AUDIBLE);

  // Ben's screen shows the alert at once; he is on it, and Ava sees so.
  const benAlert = alertOf(ben.page, ava.person.name);
  await expect(benAlert).toBeVisible();
  await benAlert.getByRole('button', { name: "I'm on it" }).click();
  const avaAlert = alertOf(ava.page, ava.person.name);
  await expect(avaAlert.getByText(`${ben.person.name} is on it`)).toBeVisible();
  await avaAlert.screenshot({ path: testInfo.outputPath('sos-sender.png') });

  // Dee's phone got the push while Chirp was closed; its tap opens the alert with the location.
  const sent = await push.nextPush(dee.device, (payload) => payload.kind === 'sos');
  expect(sent.payload.title).toBe(`SOS from ${ava.person.name}`);
  const opened = await dee.device.context.newPage();
  await opened.goto(sent.payload.url);
  const deeAlert = alertOf(opened, ava.person.name);
  await expect(deeAlert).toBeVisible();
  await expect(deeAlert.getByText('52.52008')).toBeVisible({ timeout: 20_000 });
  await expect(deeAlert.getByText('13.40495')).toBeVisible();
  await expect(deeAlert.getByText(/± ?25 m/)).toBeVisible();
  await expect(deeAlert.getByRole('link', { name: 'Open in Maps' })).toHaveAttribute(
    'href',
    /^geo:52\.52008,13\.40495/,
  );
  await expect(deeAlert.getByRole('link', { name: 'OpenStreetMap' })).toHaveAttribute(
    'href',
    /openstreetmap\.org\/.*mlat=52\.52008.*mlon=13\.40495/,
  );
  await expect(deeAlert.getByText(`${ben.person.name} is on it`)).toBeVisible();
  // The kept SOS audio (after the SOS seconds), played from the alert.
  const player = deeAlert.getByTestId('sos-audio');
  await expect(player).toHaveCount(1, { timeout: 30_000 });
  // The browser's own player: its controls live in its shadow tree, so the test presses play as
  // the control does.
  await player.evaluate((audio: HTMLAudioElement) => audio.play());
  await expect
    .poll(() => player.evaluate((audio: HTMLAudioElement) => audio.currentTime), {
      timeout: 10_000,
    })
    .toBeGreaterThan(0);
  for (const width of [390, 1280]) {
    await opened.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await opened.screenshot({ path: testInfo.outputPath(`sos-alert-${width}.png`) });
  }
  expect(await seriousViolations(opened)).toEqual([]);

  // Ava marks it resolved: the alert closes on every screen.
  await avaAlert.getByRole('button', { name: 'Mark resolved' }).click();
  for (const page of [ava.page, ben.page, opened])
    await expect(alertOf(page, ava.person.name)).toBeHidden();

  await cid.page.keyboard.up('Space');
  for (const person of [ava, ben, cid]) await person.context.close();
  await dee.device.context.close();
});

test('the SOS countdown is held and cancelled from the keyboard, and axe finds nothing serious in it', async ({
  browser,
  baseURL,
}, testInfo) => {
  const ava = await open(browser, someone('Ava'), 'tone');
  resolveLeftOpen = () => resolveOpenAlertsOf(ava.context.request, baseURL!);
  // However long the checks take, no SOS leaves this test: the raise never reaches the server.
  await ava.page.route('**/api/sos', (route) =>
    route.request().method() === 'POST' ? route.abort() : route.fallback(),
  );
  const { id: channelId, owner } = await channelWithAdmin(browser, baseURL!, [ava]);
  const sos = await owner.page.request.put(`/api/channels/${channelId}/sos`, {
    data: { sos: true, sosSeconds: 10 },
    headers: { origin: baseURL! },
  });
  expect(sos.ok()).toBe(true);
  await owner.context.close();

  // The keyboard equivalent of the hold: Enter held down on the focused button for 2 s.
  const button = sosButton(ava.page);
  await expect(button).toBeVisible();
  await button.focus();
  await ava.page.keyboard.down('Enter');
  await ava.page.waitForTimeout(SOS_HOLD_MS + 300);
  await ava.page.keyboard.up('Enter');
  const countdown = countdownOf(ava.page);
  await expect(countdown).toBeVisible();
  // Cancel is where the keyboard is, ready for Enter or Space.
  await expect(countdown.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await countdown.screenshot({ path: testInfo.outputPath('sos-countdown.png') });
  expect(await seriousViolations(ava.page, { within: '[role="alertdialog"]' })).toEqual([]);
  if (await countdown.isVisible()) {
    await ava.page.keyboard.press('Escape');
    await expect(countdown).toBeHidden();
  }
});
