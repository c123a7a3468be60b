import type { Page } from '@playwright/test';
import { OWNER, newPerson } from './accounts';
import { cardOf, twoMembersInOneChannel, userIdOf } from './channel-setup';
import { expect, openAs, signIn, test } from './fixtures';
import { channelWith, open } from './voice-audio';

/** Issue 13 item 4 and 5: what a user hit before, each seen in the browser (screenshots). */

const goOnline = (page: Page) => page.getByRole('button', { name: /Tap to connect/ }).click();

test('on a phone toasts stay clear of the top bar, and a tapped toast still closes', async ({
  browser,
  baseURL,
}, testInfo) => {
  const person = newPerson('Tap', `T${Date.now()}`);
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  const page = await context.newPage();
  await signIn(page, person.name, person.email, person.password);
  const a = { person, context, page };
  await channelWith(browser, baseURL!, [a]);
  await goOnline(a.page);
  await expect(a.page.getByText('Voice Ready', { exact: true })).toBeVisible({ timeout: 20_000 });
  const toast = a.page.getByRole('region', { name: /Notifications/ }).getByRole('listitem');
  // A fresh toast, tapped at once: tapping used to pause its timer for good.
  await a.page.getByRole('button', { name: 'Mute Self' }).click();
  await expect(toast).toContainText('Self Muted');
  await toast.tap();
  const topBar = await a.page.getByRole('navigation', { name: 'Main' }).boundingBox();
  const box = await toast.boundingBox();
  expect(box!.y).toBeGreaterThan(topBar!.y + topBar!.height);
  await a.page.screenshot({ path: testInfo.outputPath('toast-phone.png') });
  await expect(toast).toHaveCount(0, { timeout: 8000 });
  await a.page.getByRole('button', { name: 'Settings' }).click();
  await expect(a.page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await a.context.close();
});

test('the create-channel dialog says nothing until the name is really blank', async ({
  browser,
}, testInfo) => {
  const owner = await openAs(browser, OWNER);
  await owner.page.getByRole('button', { name: 'Channels' }).click();
  await owner.page.getByRole('menuitem', { name: 'Create New Channel' }).click();
  const dialog = owner.page.getByRole('dialog', { name: 'Create New Channel' });
  await expect(dialog.getByLabel('Channel name')).toBeFocused();
  await dialog.getByLabel('Channel name').blur();
  await expect(dialog.getByText('Channel name cannot be empty')).toHaveCount(0);
  await owner.page.screenshot({ path: testInfo.outputPath('create-channel-untouched.png') });
  await dialog.getByLabel('Channel name').fill('   ');
  await expect(dialog.getByText('Channel name cannot be empty')).toBeVisible();
  await owner.context.close();
});

test('an admin comes back to the channel they had open; the superadmin is asked before joining and never offered to remove a creator', async ({
  browser,
  baseURL,
}, testInfo) => {
  const headers = { origin: baseURL! };
  const owner = await openAs(browser, OWNER);
  const admin = await openAs(browser, newPerson('Ada', `R${Date.now()}`));
  const guest = await openAs(browser, newPerson('Gus', `R${Date.now()}`));
  const adminId = await userIdOf(admin.page);
  await owner.page.request.post(`/api/users/${adminId}/subscription`, {
    data: { subscriptionTier: 'admin' },
    headers,
  });
  const name = `Remember ${Date.now()}`;
  const created = await admin.page.request.post('/api/channels', { data: { name }, headers });
  const { id } = (await created.json()) as { id: number };
  await admin.page.request.post(`/api/channels/${id}/members`, {
    data: { userId: await userIdOf(guest.page) },
    headers,
  });

  // The admin picks the channel once; after a reload it is open again.
  await admin.page.reload();
  await expect(admin.page.getByText('Please select a channel to start')).toBeVisible();
  await admin.page.getByRole('button', { name: 'Channels' }).click();
  await admin.page
    .getByRole('group', { name: 'Created by You' })
    .getByRole('menuitem', { name })
    .click();
  await expect(admin.page.getByRole('heading', { name, exact: true })).toBeVisible();
  await admin.page.reload();
  await expect(admin.page.getByRole('heading', { name, exact: true })).toBeVisible();
  await expect(admin.page.getByText('Please select a channel to start')).toHaveCount(0);

  // The superadmin picks it under All Channels: a question first, Cancel changes nothing.
  await owner.page.getByRole('button', { name: 'Channels' }).click();
  await owner.page
    .getByRole('group', { name: 'All Channels' })
    .getByRole('menuitem', { name })
    .click();
  const join = owner.page.getByRole('dialog', { name: `Join ${name}?` });
  await expect(join).toBeVisible();
  await owner.page.screenshot({ path: testInfo.outputPath('join-question.png') });
  await join.getByRole('button', { name: 'Cancel' }).click();
  const members = async () =>
    (
      (await (await owner.page.request.get(`/api/channels/${id}/members`)).json()) as {
        id: string;
      }[]
    ).length;
  expect(await members()).toBe(2);
  await owner.page.getByRole('button', { name: 'Channels' }).click();
  await owner.page
    .getByRole('group', { name: 'All Channels' })
    .getByRole('menuitem', { name })
    .click();
  await join.getByRole('button', { name: 'Join Channel' }).click();
  await expect(owner.page.getByRole('heading', { name, exact: true })).toBeVisible();
  expect(await members()).toBe(3);
  const list = owner.page.getByRole('list', { name: 'Members' });
  await expect(list.getByRole('button', { name: `Remove ${guest.person.name}` })).toBeVisible();
  await expect(list.getByRole('button', { name: `Remove ${admin.person.name}` })).toHaveCount(0);
  for (const user of [owner, admin, guest]) await user.context.close();
});

test('a headset button only mutes when the user turned it on', async ({ browser, baseURL }) => {
  const { a, b } = await twoMembersInOneChannel(browser, baseURL!);
  // The browser's Media Session cannot be pressed from a test: record the handlers the app sets.
  await a.page.evaluate(() => {
    const handlers: Record<string, unknown> = {};
    (window as unknown as { headsetHandlers: Record<string, unknown> }).headsetHandlers = handlers;
    const set = navigator.mediaSession.setActionHandler.bind(navigator.mediaSession);
    navigator.mediaSession.setActionHandler = (action, handler) => {
      handlers[action] = handler;
      set(action, handler);
    };
  });
  const pressPlay = () =>
    a.page.evaluate(() => {
      const handler = (window as unknown as { headsetHandlers: Record<string, unknown> })
        .headsetHandlers.play;
      if (typeof handler !== 'function') return false;
      (handler as (details: { action: string }) => void)({ action: 'play' });
      return true;
    });
  await goOnline(a.page);
  expect(await pressPlay()).toBe(false);
  await expect(a.page.getByRole('button', { name: 'Mute Self' })).toHaveAttribute(
    'aria-pressed',
    'false',
  );

  await a.page.getByRole('button', { name: 'Settings' }).click();
  await a.page.getByRole('checkbox', { name: /Headset button/ }).check();
  await a.page.getByRole('button', { name: 'Back' }).click();
  expect(await pressPlay()).toBe(true);
  await expect(a.page.getByRole('button', { name: 'Mute Self' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await a.context.close();
  await b.context.close();
});

test('a refused voice token names the provider in use, and the member is never shown speaking', async ({
  browser,
  baseURL,
}, testInfo) => {
  const { a, b } = await twoMembersInOneChannel(browser, baseURL!);
  // The real server refuses a token asked for someone else; the request is rewritten on its way.
  await a.page.route('**/api/livekit-token', async (route) => {
    const body = route.request().postDataJSON() as Record<string, unknown>;
    await route.continue({ postData: JSON.stringify({ ...body, userId: 'someone-else' }) });
  });
  await goOnline(a.page);
  await expect(
    a.page.getByRole('alert').filter({ hasText: 'Failed to get built-in voice token: Forbidden' }),
  ).toBeVisible();
  await expect(a.page.getByText('Voice Unavailable', { exact: true })).toBeVisible();
  await expect(cardOf(b.page, a.person.name)).not.toContainText('Speaking');
  await a.page.setViewportSize({ width: 390, height: 844 });
  await a.page.screenshot({ path: testInfo.outputPath('token-refused.png'), fullPage: true });
  await a.context.close();
  await b.context.close();
});

test('a call with no microphone says it is missing, not denied', async ({ browser, baseURL }) => {
  const caller = await open(browser, newPerson('Cora', `M${Date.now()}`), 'tone');
  const callee = await open(browser, newPerson('Milo', `M${Date.now()}`), 'missing');
  void baseURL;
  const call = caller.page.getByRole('button', { name: `Call ${callee.person.name}` });
  // Placing a call needs the caller's socket open (spec §5); try until the callee rings.
  await expect(async () => {
    if (!(await call.isVisible()))
      await caller.page.getByRole('button', { name: 'Contacts' }).click();
    await call.click({ timeout: 3000 });
    await expect(callee.page.getByTestId('incoming-call')).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await callee.page.getByRole('button', { name: 'Accept call' }).click();
  await expect(
    callee.page.getByText('No microphone found - please connect a microphone and try again', {
      exact: true,
    }),
  ).toBeVisible();
  await expect(callee.page.getByText('Microphone access denied', { exact: false })).toHaveCount(0);
  await caller.context.close();
  await callee.context.close();
});
