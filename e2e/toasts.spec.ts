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
