import type { Page } from '@playwright/test';
import { cardOf, twoMembersInOneChannel, userIdOf } from './support/channel-setup';
import { expect, test, type SignedInUser } from './support/fixtures';

/** Pretends the tab went to the background or came back, as a phone locking its screen would. */
async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((isHidden) => {
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => (isHidden ? 'hidden' : 'visible'),
    });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => isHidden });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

test('B sees A idle, online once on the air, idle again, and offline once A closes the page', async ({
  browser,
  baseURL,
}) => {
  const { a, b } = await twoMembersInOneChannel(browser, baseURL!);
  const aOnB = cardOf(b.page, a.person.name);
  // Decision 016: in the app but not listening (OFFLINE) reads Idle, on A's own card too.
  await expect(aOnB).toContainText('Idle');
  await expect(cardOf(a.page, a.person.name)).toContainText('Idle');

  await a.page.getByRole('button', { name: /Tap to connect/ }).click();
  const toggle = a.page.getByRole('button', { name: /Tap to disconnect/ });
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(toggle).toContainText('ONLINE');
  await expect(a.page.getByText('Connecting to voice...', { exact: true })).toBeVisible();
  await expect(a.page.getByText('Voice Ready', { exact: true })).toBeVisible({ timeout: 20_000 });
  // Decision 044: an open microphone is Online; "Speaking" is a voice B hears (B is OFFLINE).
  await expect(aOnB).toContainText('Online', { timeout: 1000 });
  await expect(aOnB).not.toContainText('Speaking');

  await toggle.click();
  await expect(a.page.getByRole('button', { name: /Tap to connect/ })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  await expect(aOnB).toContainText('Idle', { timeout: 1000 });

  await a.context.close();
  await expect(aOnB).toContainText('Offline', { timeout: 35_000 });
  await b.context.close();
});

test('a hidden page is idle: it stops listening, and is online again when shown', async ({
  browser,
  baseURL,
}) => {
  const { a, b } = await twoMembersInOneChannel(browser, baseURL!);
  const aOnB = cardOf(b.page, a.person.name);
  // The keyboard works the big button too.
  await a.page.getByRole('button', { name: /Tap to connect/ }).focus();
  await a.page.keyboard.press('Space');
  await expect(aOnB).toContainText('Online', { timeout: 20_000 });

  await setHidden(a.page, true);
  // Decision 016: an idle member reads Idle, not a green Online.
  await expect(aOnB).toContainText('Idle', { timeout: 1000 });
  await expect(a.page.getByRole('button', { name: /Tap to disconnect/ })).toBeVisible();

  await setHidden(a.page, false);
  await expect(aOnB).toContainText('Online', { timeout: 20_000 });
  await closeAll(a, b);
});

test('a poke from B reaches A as a toast with B’s name', async ({ browser, baseURL }) => {
  const { a, b, channelId } = await twoMembersInOneChannel(browser, baseURL!);
  const poked = await b.page.request.post(
    `/api/channels/${channelId}/members/${await userIdOf(a.page)}/poke`,
    {
      headers: { origin: baseURL! },
    },
  );
  expect(poked.ok()).toBe(true);
  await expect(a.page.getByText('Poke!', { exact: true })).toBeVisible();
  await expect(a.page.getByText(`${b.person.name} poked you`, { exact: true })).toBeVisible();
  await closeAll(a, b);
});

test('the online state looks right on a phone and a desktop', async ({
  browser,
  baseURL,
}, testInfo) => {
  const { a, b } = await twoMembersInOneChannel(browser, baseURL!);
  await a.page.setViewportSize({ width: 390, height: 844 });
  await a.page.screenshot({ path: testInfo.outputPath('offline-390x844.png'), fullPage: true });
  await a.page.getByRole('button', { name: /Tap to connect/ }).click();
  await expect(a.page.getByText('Voice Ready', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(cardOf(a.page, a.person.name)).toContainText('Online');
  await expect(cardOf(a.page, b.person.name)).toContainText('Idle');
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await a.page.setViewportSize({ width, height });
    await a.page.screenshot({
      path: testInfo.outputPath(`online-${width}x${height}.png`),
      fullPage: true,
    });
  }
  await closeAll(a, b);
});

async function closeAll(...users: SignedInUser[]): Promise<void> {
  for (const user of users) await user.context.close();
}
