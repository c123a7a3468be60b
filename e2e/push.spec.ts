import { randomBytes } from 'node:crypto';
import { newPerson, type Person } from './support/accounts';
import { twoMembersInOneChannel, userIdOf } from './support/channel-setup';
import { expect, signInAndOpen, test } from './support/fixtures';
import { placeCall } from './support/place-call';
import {
  deliverUntilShown,
  notificationsShown,
  turnOn,
  usePushService,
} from './support/push-device';

/** Web Push end to end in Chromium, through a local push service: see support/push-device.ts. */
const lab = usePushService();
const { newDevice, pushesTo, nextPush } = lab;

const someone = (first: string): Person => newPerson(first, `P${randomBytes(3).toString('hex')}`);

test('Settings → Notifications: turn on, a test notification through the push service and the service worker, turn off', async ({
  browser,
  baseURL,
}) => {
  const device = await newDevice(browser, baseURL!);
  const page = await device.context.newPage();
  const person = someone('Nia');
  await signInAndOpen(page, person);
  await turnOn(page);
  const card = page.locator('#notifications');

  await card.getByRole('button', { name: 'Send a test notification' }).click();
  const test = await nextPush(device, (payload) => payload.kind === 'test');
  expect(await deliverUntilShown(page, test.text, test.payload.tag)).toMatchObject({
    title: test.payload.title,
    body: test.payload.body,
    data: { url: test.payload.url },
  });

  // A push the worker cannot read still shows a notification (Safari revokes silent pushers).
  expect(await deliverUntilShown(page, 'not json', 'chirp')).toMatchObject({
    title: 'Chirp',
    data: { url: '/' },
  });
  // One thing, one notification: each tag shows once.
  expect((await notificationsShown(page)).map((n) => n.tag).sort()).toEqual([
    'chirp',
    test.payload.tag,
  ]);

  // Signing out removes the device on the server; signing in again on it, Settings tells the server
  // of the subscription the browser kept, and a test reaches it again.
  await page.goto('/');
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Continue to Sign In' })).toBeVisible();
  await signInAndOpen(page, person);
  await page.goto('/settings?section=notifications');
  await card.getByRole('button', { name: 'Send a test notification' }).click();
  await expect.poll(() => pushesTo(device).length).toBe(2);

  // Which kinds notify is kept on the server (all devices): Pokes off stays off after a reload.
  const pokes = card.getByRole('switch', { name: /Pokes/ });
  await expect(pokes).toBeChecked();
  await pokes.uncheck();
  await expect(pokes).not.toBeChecked();
  await page.reload();
  await expect(card.getByRole('switch', { name: /Pokes/ })).not.toBeChecked();
  await expect(card.getByRole('switch', { name: /Calls/ })).toBeChecked();

  await card.getByRole('button', { name: 'Turn off' }).click();
  await expect(
    card.getByRole('button', { name: 'Turn on notifications on this device' }),
  ).toBeVisible();
  // The server forgot the device: a test for it is refused.
  const refused = await page.request.post('/api/push/test', {
    data: { endpoint: device.endpoint },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(refused.status()).toBe(404);
  await device.context.close();
});

for (const width of [390, 1280]) {
  test(`Settings → Notifications at ${width} px`, async ({ browser, baseURL }, testInfo) => {
    const device = await newDevice(browser, baseURL!);
    const page = await device.context.newPage();
    await page.setViewportSize({ width, height: 900 });
    await signInAndOpen(page, someone('Ola'));
    await turnOn(page);
    const card = page.locator('#notifications');
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: testInfo.outputPath(`notifications-${width}.png`) });
    // Nothing of the card runs off a phone's screen.
    const box = await card.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(width);
    await device.context.close();
  });
}

test("a channel's Notify me is in its own actions and is kept", async ({ browser, baseURL }) => {
  const { a, b, channelId } = await twoMembersInOneChannel(browser, baseURL!);
  const notify = b.page.getByRole('button', { name: 'Notify me' });
  await expect(notify).toHaveAttribute('aria-pressed', 'true');
  await notify.focus();
  await b.page.keyboard.press('Enter');
  await expect(notify).toHaveAttribute('aria-pressed', 'false');
  await b.page.reload();
  await expect(b.page.getByRole('button', { name: 'Notify me' })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  expect(await (await b.page.request.get(`/api/channels/${channelId}/notify`)).json()).toEqual({
    notify: false,
  });
  // Ava's stays on: it is each member's own.
  await expect(a.page.getByRole('button', { name: 'Notify me' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  for (const user of [a, b]) await user.context.close();
});

test('a call to Ben pushes once to his device whose page is closed and none to the one open and visible; the notification opens the ringing call', async ({
  browser,
  baseURL,
}) => {
  const ben = someone('Ben');
  const ava = someone('Ava');
  // Ben's phone: notifications on, then Chirp closed.
  const phone = await newDevice(browser, baseURL!);
  const phonePage = await phone.context.newPage();
  await signInAndOpen(phonePage, ben);
  await turnOn(phonePage);
  await phonePage.close();
  // Ben's laptop: notifications on, and Chirp open in front of him.
  const laptop = await newDevice(browser, baseURL!);
  const laptopPage = await laptop.context.newPage();
  await signInAndOpen(laptopPage, ben);
  await turnOn(laptopPage);
  await laptopPage.goto('/');
  const caller = await browser.newContext();
  const avaPage = await caller.newPage();
  await signInAndOpen(avaPage, ava);

  await placeCall(avaPage, ben.name);
  await expect(laptopPage.getByTestId('incoming-call')).toBeVisible();
  const ring = await nextPush(phone, (payload) => payload.kind === 'call');
  expect(ring.payload.body).toContain(ava.name);
  // Ava gives up: the phone is told it was missed, under the same tag (it replaces the ringing one).
  await avaPage.getByRole('button', { name: 'End call' }).click();
  const missed = await nextPush(phone, (payload) => payload.kind === 'missed-call');
  expect(missed.payload.tag).toBe(ring.payload.tag);
  // Once per event on the phone; nothing on the laptop, where Ben saw it all in the page.
  expect(pushesTo(phone)).toHaveLength(2);
  expect(pushesTo(laptop)).toEqual([]);

  // The first call's notification, tapped now: it no longer rings.
  const tapped = await phone.context.newPage();
  await tapped.goto(ring.payload.url);
  await expect(tapped.getByText(`Missed call from ${ava.name}`).first()).toBeVisible();
  await expect(tapped).toHaveURL(/\/$/);
  await tapped.close();

  // A second call, while the phone's page is closed again: its notification opens the ringing call.
  await placeCall(avaPage, ben.name);
  const ringing = await nextPush(
    phone,
    (payload) => payload.kind === 'call' && payload.tag !== ring.payload.tag,
  );
  const phoneAgain = await phone.context.newPage();
  await phoneAgain.goto('/settings');
  const shown = await deliverUntilShown(phoneAgain, ringing.text, ringing.payload.tag);
  expect(shown.title).toBe(ringing.payload.title);
  const { url } = shown.data as { url: string };
  expect(url).toMatch(/^\/\?call=/);
  await phoneAgain.goto(url);
  const incoming = phoneAgain.getByRole('dialog', { name: `Incoming call from ${ava.name}` });
  await expect(incoming.getByRole('button', { name: 'Accept call' })).toBeVisible();
  await expect(incoming.getByRole('button', { name: 'Decline call' })).toBeVisible();
  await expect(phoneAgain).toHaveURL(/\/$/);
  await incoming.getByRole('button', { name: 'Decline call' }).click();
  await expect(avaPage.getByText('Call declined', { exact: true })).toBeVisible();

  for (const context of [phone.context, laptop.context, caller]) await context.close();
});

test('a caller Ben blocked pushes nothing to him; a push service that answers 410 for his phone removes it', async ({
  browser,
  baseURL,
}) => {
  const ben = someone('Ben');
  const ava = someone('Ava');
  const phone = await newDevice(browser, baseURL!);
  const phonePage = await phone.context.newPage();
  await signInAndOpen(phonePage, ben);
  await turnOn(phonePage);
  const origin = new URL(phonePage.url()).origin;
  const caller = await browser.newContext();
  const avaPage = await caller.newPage();
  await signInAndOpen(avaPage, ava);
  const block = `/api/users/${await userIdOf(avaPage)}/block`;
  expect((await phonePage.request.post(block, { headers: { origin } })).status()).toBe(200);
  await phonePage.close();

  // Blocked: Ava is told Ben is not available; his phone, with Chirp closed, is not woken.
  await avaPage.getByRole('button', { name: 'Contacts' }).click();
  await avaPage.getByRole('button', { name: `Call ${ben.name}` }).click();
  await expect(avaPage.getByText('User is not available', { exact: true })).toBeVisible();

  // Unblocked, her next call reaches the phone, and it is the only push the phone ever got.
  expect((await phone.context.request.delete(block, { headers: { origin } })).status()).toBe(200);
  await placeCall(avaPage, ben.name);
  const ring = await nextPush(phone, (payload) => payload.kind === 'call');
  expect(pushesTo(phone)).toHaveLength(1);
  await avaPage.getByRole('button', { name: 'End call' }).click();
  await nextPush(
    phone,
    (payload) => payload.kind === 'missed-call' && payload.tag === ring.payload.tag,
  );

  // The push service now says the phone's subscription is gone (410): the next push to it removes
  // it on the server, so a test notification for that device is refused as not subscribed.
  lab.service.answers.set(new URL(phone.endpoint).pathname, 410);
  const sent = pushesTo(phone).length;
  await placeCall(avaPage, ben.name);
  await expect.poll(() => pushesTo(phone).length).toBe(sent + 1);
  await avaPage.getByRole('button', { name: 'End call' }).click();
  await expect
    .poll(async () =>
      (
        await phone.context.request.post('/api/push/test', {
          data: { endpoint: phone.endpoint },
          headers: { origin },
        })
      ).status(),
    )
    .toBe(404);

  for (const context of [phone.context, caller]) await context.close();
});
