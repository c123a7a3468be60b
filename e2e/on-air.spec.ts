import { newPerson } from './support/accounts';
import { cardOf } from './support/channel-setup';
import { expect, test } from './support/fixtures';
import { AUDIBLE, channelWith, goOnline, levelFrom, open, userId } from './support/voice-audio';

// A walkie-talkie does not switch off when you open a menu. The voice runs above the
// routes, so a member who opens Settings or Upgrade keeps talking and hearing.
test('a member on Settings and Upgrade stays on the air, and comes back still ONLINE', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  // A voice that comes and goes, as speech does: the level detectors hear it speak (decision 044).
  const talker = await open(browser, newPerson('Tia'), 'voice');
  const listener = await open(browser, newPerson('Leo'), 'tone');
  await channelWith(browser, baseURL!, [talker, listener]);
  const talkerId = await userId(talker.page);

  await goOnline(listener.page);
  await expect(listener.page.getByText('Voice Ready', { exact: true })).toBeVisible({
    timeout: 20_000,
  });
  await goOnline(talker.page);
  await expect(talker.page.getByText('Voice Ready', { exact: true })).toBeVisible({
    timeout: 20_000,
  });
  await expect
    .poll(() => levelFrom(listener.page, talkerId), { timeout: 15_000 })
    .toBeGreaterThan(AUDIBLE);

  // The talker opens Settings: no leave, no Offline toast, and the listener still hears them.
  await talker.page.getByRole('button', { name: 'Settings' }).click();
  await expect(talker.page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  const toasts = talker.page.getByRole('region', { name: /Notifications/ });
  await expect(toasts.getByText('Offline', { exact: true })).toHaveCount(0);
  await talker.page.waitForTimeout(1500);
  await expect
    .poll(() => levelFrom(listener.page, talkerId), { timeout: 10_000 })
    .toBeGreaterThan(AUDIBLE);
  await expect(cardOf(listener.page, talker.person.name)).toContainText('Speaking');

  // On to Upgrade, then Back to the main screen: still ONLINE, still heard.
  await talker.page.getByRole('button', { name: 'Upgrade', exact: true }).click();
  await expect(talker.page.getByRole('heading', { name: 'Upgrade' })).toBeVisible();
  await expect
    .poll(() => levelFrom(listener.page, talkerId), { timeout: 10_000 })
    .toBeGreaterThan(AUDIBLE);
  await talker.page.getByRole('button', { name: 'Back' }).click();

  const toggle = talker.page.getByRole('button', { name: /Tap to disconnect/ });
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(toggle).toContainText('ONLINE');
  await expect(talker.page.getByText('Voice Ready', { exact: true })).toBeVisible();
  await expect
    .poll(() => levelFrom(listener.page, talkerId), { timeout: 10_000 })
    .toBeGreaterThan(AUDIBLE);

  await talker.context.close();
  await listener.context.close();
});
