import { OWNER, newPerson } from './support/accounts';
import { expect, openAs, signIn, test } from './support/fixtures';

test('the landing links the Terms of Service and Privacy Policy the server names', async ({ page, baseURL }) => {
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', `${baseURL}/legal/terms`);
  await expect(page.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', `${baseURL}/legal/privacy`);
});

test('a built-in account changes its password in Settings', async ({ page, person }) => {
  await signIn(page, person.name, person.email, person.password);
  await page.getByRole('button', { name: 'Settings' }).click();
  const card = page.getByRole('heading', { name: 'Password' }).locator('xpath=ancestor::div[contains(@class,"rounded-2xl")]');
  await card.getByLabel('Current password').fill('not my password');
  await card.getByLabel('New password').fill('purple staple battery');
  await card.getByRole('button', { name: 'Change password' }).click();
  await expect(card.getByRole('alert')).toHaveText('Your current password is not correct');

  await card.getByLabel('Current password').fill(person.password);
  await card.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed', { exact: true })).toBeVisible();
  await expect(card.getByLabel('Current password')).toHaveValue('');

  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByRole('button', { name: 'Continue to Sign In' }).click();
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Wrong email or password')).toBeVisible();
  await page.getByLabel('Password').fill('purple staple battery');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
});

test('deleting your account in Settings removes it and the channels you created', async ({ browser }) => {
  const owner = await openAs(browser, OWNER);
  const leaving = await openAs(browser, newPerson('Lee', 'Leaving'));
  const staying = await openAs(browser, newPerson('Sid', 'Staying'));
  const idOf = async (page: typeof owner.page) => ((await (await page.request.get('/api/auth/user')).json()) as { id: string }).id;
  const [leavingId, stayingId] = [await idOf(leaving.page), await idOf(staying.page)];
  const origin = new URL(owner.page.url()).origin;
  await owner.page.request.post(`/api/users/${leavingId}/subscription`, { data: { subscriptionTier: 'admin' }, headers: { origin } });
  const created = await leaving.page.request.post('/api/channels', { data: { name: 'Leaving Soon' }, headers: { origin } });
  const channelId = ((await created.json()) as { id: number }).id;
  await leaving.page.request.post(`/api/channels/${channelId}/members`, { data: { userId: stayingId }, headers: { origin } });
  expect((await staying.page.request.get('/api/channels')).ok()).toBe(true);
  expect(await (await staying.page.request.get('/api/channels')).json()).toContainEqual(expect.objectContaining({ id: channelId }));

  const page = leaving.page;
  await page.goto('/settings');
  await page.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByText('Leaving Soon (2 members)')).toBeVisible();
  await dialog.getByLabel('Your password').fill('wrong password');
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Your current password is not correct');
  await dialog.getByLabel('Your password').fill(leaving.person.password);
  await dialog.getByRole('button', { name: 'Delete account' }).click();

  await expect(page.getByRole('button', { name: 'Continue to Sign In' })).toBeVisible();
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
  expect(await (await staying.page.request.get('/api/channels')).json()).not.toContainEqual(expect.objectContaining({ id: channelId }));
  const users = (await (await owner.page.request.get('/api/users')).json()) as { id: string }[];
  expect(users.map((u) => u.id)).not.toContain(leavingId);
  for (const person of [owner, leaving, staying]) await person.context.close();
});
