import { expect, signIn, test } from './support/fixtures';

/** Usage and plans: pay-as-you-go in Settings, and the Upgrade screen. */

// A spec item that was only partly there.
test('pay-as-you-go can be turned off again in Settings', async ({ page, person }, testInfo) => {
  await signIn(page, person.name, person.email);
  await page.goto('/settings');
  const usage = () =>
    page.request
      .get('/api/usage')
      .then(async (r) => ((await r.json()) as { payAsYouGoEnabled: boolean }).payAsYouGoEnabled);
  await expect(page.getByText(/Pay-as-you-go is off/)).toBeVisible();
  await page.getByRole('button', { name: 'Enable Pay-as-you-go' }).click();
  await expect(page.getByText(/Pay-as-you-go is on/)).toBeVisible();
  expect(await usage()).toBe(true);
  await page.getByRole('button', { name: 'Disable Pay-as-you-go' }).click();
  await expect(page.getByText(/Pay-as-you-go is off/)).toBeVisible();
  expect(await usage()).toBe(false);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath('settings-usage.png'), fullPage: true });
});

test('the upgrade screen shows both plans, the FAQ, and says payments are not configured', async ({ page, person }) => {
  await signIn(page, person.name, person.email);
  await page.goto('/upgrade');
  await expect(page.getByRole('heading', { name: 'Member' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Admin' })).toBeVisible();
  await expect(page.getByText('Recommended')).toBeVisible();
  await expect(page.getByText('$1')).toBeVisible();
  await expect(page.getByText('$5')).toBeVisible();
  for (const question of ['Can I cancel anytime?', 'What happens after the free trial?', 'What are participant minutes?']) {
    await expect(page.getByText(question)).toBeVisible();
  }
  await page.getByRole('button', { name: 'Start free trial' }).first().click();
  await expect(page.getByText('Stripe Integration Required', { exact: true })).toBeVisible();
});
