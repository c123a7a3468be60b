import { newPerson } from './support/accounts';
import { cardOf } from './support/channel-setup';
import { expect, test } from './support/fixtures';
import { channelWith, goOnline, open } from './support/voice-audio';

test('in Hold to talk mode, holding Space transmits and releasing stops', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  // B listens (ONLINE, a quiet room); A speaks only while holding. Decision 044: B's card for A says
  // "Speaking" exactly while B hears A's voice.
  const a = await open(browser, newPerson('Ava'), 'voice');
  const b = await open(browser, newPerson('Ben'), 'silent');
  await channelWith(browser, baseURL!, [a, b]);
  await goOnline(b.page);
  await expect(b.page.getByText('Voice Ready', { exact: true })).toBeVisible({ timeout: 20_000 });
  await a.page.goto('/settings?section=voice');
  await a.page.getByRole('radio', { name: /Hold to talk/ }).check();
  await a.page.getByRole('button', { name: 'Back' }).click();

  await a.page.getByRole('button', { name: /Tap to connect/ }).click();
  const aOnB = cardOf(b.page, a.person.name);
  // The ONLINE switch and the talk button are apart (decision 043): the switch only toggles.
  const toggle = a.page.getByRole('button', { name: /Tap to disconnect/ });
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(toggle).not.toContainText('Hold to talk');
  const talk = a.page.getByRole('button', { name: /Hold to talk/ });
  await expect(talk).toBeEnabled();
  await expect(a.page.getByText('Voice Ready', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(aOnB).toContainText('Online');
  await expect(aOnB).not.toContainText('Speaking');

  // Focus the page body, then hold Space as a walkie-talkie user would.
  await a.page.locator('body').click({ position: { x: 5, y: 5 } });
  await a.page.keyboard.down('Space');
  await expect(aOnB).toContainText('Speaking', { timeout: 5000 });
  await a.page.keyboard.up('Space');
  await expect(aOnB).not.toContainText('Speaking', { timeout: 3000 });
  // Still online and hearing the channel after letting go.
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');

  // Holding the talk button talks too (Live while held), without toggling offline.
  await talk.hover();
  await a.page.mouse.down();
  await expect(aOnB).toContainText('Speaking', { timeout: 5000 });
  const live = a.page.getByRole('button', { name: /Live/ });
  await expect(live).toHaveAttribute('aria-pressed', 'true');
  // An open channel has no maximum transmission: nothing counts down.
  await expect(a.page.getByRole('timer')).toHaveCount(0);
  await a.page.waitForTimeout(400);
  await a.page.mouse.up();
  await expect(aOnB).not.toContainText('Speaking', { timeout: 3000 });
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');

  // A short tap on the talk button never takes the user offline.
  await talk.click();
  await a.page.waitForTimeout(500);
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(aOnB).toContainText('Online');
  for (const user of [a, b]) await user.context.close();
});
