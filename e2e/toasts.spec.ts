import { newPerson } from './support/accounts';
import { expect, signIn, test } from './support/fixtures';
import { channelWith, goOnline } from './support/voice-audio';

/** Toasts: where they sit and how they close. */

// What a user hit before, seen in the browser.
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
  // Connecting takes a moment on a phone network; here it is held for 2 s, so the toast is looked at
  // while it is true (on loopback it could come and go before the test looks).
  await a.page.route('**/api/usage/session/start', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await route.continue();
  });
  await goOnline(a.page);
  const toast = a.page.getByRole('region', { name: /Notifications/ }).getByRole('listitem');
  await expect(toast).toContainText('Connecting to voice...');
  // On a phone the toast sits under the top bar, clear of the member list below the controls.
  const members = await a.page.getByRole('list', { name: 'Members' }).boundingBox();
  const connecting = await toast.boundingBox();
  expect(connecting!.y + connecting!.height).toBeLessThan(members!.y);
  await a.page.screenshot({ path: testInfo.outputPath('toast-connecting-phone.png') });
  // Once voice is ready, "Connecting to voice..." is no longer true: it goes at once.
  await expect(a.page.getByText('Voice Ready', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(a.page.getByText('Connecting to voice...', { exact: true })).toBeHidden({
    timeout: 1000,
  });
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

test('on a desktop toasts sit bottom right, at most 420 px wide', async ({
  browser,
  baseURL,
}, testInfo) => {
  const person = newPerson('Desk', `T${Date.now()}`);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signIn(page, person.name, person.email, person.password);
  const a = { person, context, page };
  await channelWith(browser, baseURL!, [a]);
  await goOnline(a.page);
  await expect(a.page.getByText('Voice Ready', { exact: true })).toBeVisible({ timeout: 20_000 });
  await a.page.getByRole('button', { name: 'Mute Self' }).click();
  const toast = a.page.getByRole('region', { name: /Notifications/ }).getByRole('listitem');
  await expect(toast).toContainText('Self Muted');
  const box = await toast.boundingBox();
  expect(box!.width).toBeLessThanOrEqual(420);
  expect(box!.x + box!.width).toBeGreaterThan(1280 - 40);
  expect(box!.y + box!.height).toBeGreaterThan(800 - 40);
  await a.page.screenshot({ path: testInfo.outputPath('toast-desktop.png') });
  await a.context.close();
});
