import { randomBytes } from 'node:crypto';
import { OWNER, newPerson } from './support/accounts';
import { seriousViolations } from './support/axe';
import { expect, openAs, test } from './support/fixtures';

test('the landing shows its terms notice by default, linking the server’s own Terms and Privacy pages', async ({
  page,
  baseURL,
}) => {
  await page.goto('/');
  const notice = page.getByText('By continuing you agree to the');
  await expect(notice).toBeVisible();
  const terms = page.getByRole('link', { name: 'Terms of Service' });
  await expect(terms).toHaveAttribute('href', `${baseURL}/legal/terms`);
  await expect(page.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', `${baseURL}/legal/privacy`);
  expect(await seriousViolations(page)).toEqual([]);

  // The link opens a new tab with the project's own text, which leads back to the app.
  const [tab] = await Promise.all([page.context().waitForEvent('page'), terms.click()]);
  await expect(tab.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
  await expect(tab.getByRole('heading', { name: 'Using Chirp fairly' })).toBeVisible();
  expect(await seriousViolations(tab)).toEqual([]);
  await tab.getByRole('link', { name: 'Back to Chirp' }).click();
  await expect(tab.getByRole('button', { name: 'Continue to Sign In' })).toBeVisible();

  await page.goto('/legal/privacy');
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  await expect(page.getByText(/Open channels and one-to-one calls are not recorded/)).toBeVisible();
});

test('an invite link’s page says who invited you to which channel before you sign in', async ({ browser, baseURL }) => {
  const owner = await openAs(browser, OWNER);
  const headers = { origin: baseURL! };
  const channel = `Porch ${randomBytes(3).toString('hex')}`;
  const created = await owner.page.request.post('/api/channels', { data: { name: channel }, headers });
  const { id: channelId } = (await created.json()) as { id: number };
  const minted = await owner.page.request.post('/api/invite/generate', { data: { channelId }, headers });
  const { inviteUrl } = (await minted.json()) as { inviteUrl: string };

  const guest = await browser.newContext();
  const page = await guest.newPage();
  await page.goto(inviteUrl);
  await expect(page.getByText(`${OWNER.name} invited you to ${channel}`, { exact: true })).toBeVisible();
  await expect(page.getByText('Sign in to join the channel.')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // Signing in from there joins the channel, as before.
  const newcomer = newPerson('Ivy');
  await page.getByRole('button', { name: 'Continue to Sign In' }).click();
  await page.getByLabel('Name').fill(newcomer.name);
  await page.getByLabel('Email').fill(newcomer.email);
  await page.getByLabel('Password').fill(newcomer.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Connected to channel', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: channel, exact: true })).toBeVisible();

  // A link that no longer works says so instead of naming anything.
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  const broken = new URL(inviteUrl);
  broken.searchParams.set('invite', 'x'.repeat(43));
  await strangerPage.goto(broken.href);
  await expect(strangerPage.getByText('This invite link is invalid or has expired')).toBeVisible();
  await expect(strangerPage.getByText(channel)).toHaveCount(0);

  await owner.page.request.delete(`/api/channels/${channelId}`, { headers });
  for (const context of [owner.context, guest, stranger]) await context.close();
});
