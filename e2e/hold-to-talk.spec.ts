import { cardOf, twoMembersInOneChannel } from './support/channel-setup';
import { expect, test } from './support/fixtures';

test('in Hold to talk mode, holding Space transmits and releasing stops', async ({ browser, baseURL }) => {
  const { a, b } = await twoMembersInOneChannel(browser, baseURL!);
  await a.page.goto('/settings?section=voice');
  await a.page.getByRole('radio', { name: /Hold to talk/ }).check();
  await a.page.getByRole('button', { name: 'Back' }).click();

  await a.page.getByRole('button', { name: /Tap to connect/ }).click();
  const aOnB = cardOf(b.page, a.person.name);
  await expect(a.page.getByRole('button', { name: /Tap to disconnect/ })).toContainText('Hold to talk');
  await expect(a.page.getByText('Voice Ready', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(aOnB).toContainText('Online');
  await expect(aOnB).not.toContainText('Speaking');

  // Focus the page body, then hold Space as a walkie-talkie user would.
  await a.page.locator('body').click({ position: { x: 5, y: 5 } });
  await a.page.keyboard.down('Space');
  await expect(aOnB).toContainText('Speaking', { timeout: 1000 });
  await a.page.keyboard.up('Space');
  await expect(aOnB).not.toContainText('Speaking', { timeout: 1500 });
  // Still online and hearing the channel after letting go.
  await expect(a.page.getByRole('button', { name: /Tap to disconnect/ })).toHaveAttribute('aria-pressed', 'true');

  // Holding the big button itself talks too, without toggling offline.
  const button = a.page.getByRole('button', { name: /Tap to disconnect/ });
  await button.hover();
  await a.page.mouse.down();
  await expect(aOnB).toContainText('Speaking', { timeout: 1000 });
  await a.page.waitForTimeout(400);
  await a.page.mouse.up();
  await expect(aOnB).not.toContainText('Speaking', { timeout: 1500 });
  await expect(button).toHaveAttribute('aria-pressed', 'true');
});
