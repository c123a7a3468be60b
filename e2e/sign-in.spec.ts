import { OWNER, newPerson } from './support/accounts';
import { expect, openAs, signIn, test } from './support/fixtures';

test('a signed-out visitor sees the sign-in landing on every route', async ({ page }) => {
  for (const path of ['/', '/settings', '/upgrade']) {
    await page.goto(path);
    await expect(page.getByRole('button', { name: 'Continue to Sign In' })).toBeVisible();
  }
});

test('signing in through the built-in provider shows the main screen', async ({ page, person }) => {
  await signIn(page, person.name, person.email);
  await expect(page.getByRole('banner').getByText('Chirp', { exact: true })).toBeVisible();
  const me = await page.request.get('/api/auth/user');
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ email: person.email, subscriptionTier: 'free' });
});

test('Logout returns to the landing and ends the session', async ({ page, person }) => {
  await signIn(page, person.name, person.email);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Continue to Sign In' })).toBeVisible();
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
});

test('a wrong password is refused on the provider form', async ({ page, person }) => {
  await signIn(page, person.name, person.email);
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByRole('button', { name: 'Continue to Sign In' }).click();
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill('not my password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Wrong email or password')).toBeVisible();
});

test('an unknown route shows 404 Page Not Found, signed in or not', async ({ page, person }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('404 Page Not Found')).toBeVisible();
  await signIn(page, person.name, person.email);
  await page.goto('/no/such/page');
  await expect(page.getByText('404 Page Not Found')).toBeVisible();
});

test('two people sign in independently in two browsers; only the owner who claimed the server is superadmin', async ({ browser }) => {
  const owner = await openAs(browser, OWNER);
  const other = await openAs(browser, newPerson('Quinn'));
  const ownerMe = (await (await owner.page.request.get('/api/auth/user')).json()) as Record<string, unknown>;
  const otherMe = (await (await other.page.request.get('/api/auth/user')).json()) as Record<string, unknown>;
  expect(ownerMe).toMatchObject({ email: OWNER.email, subscriptionTier: 'superadmin' });
  expect(otherMe).toMatchObject({ email: other.person.email, subscriptionTier: 'free' });
  expect(otherMe.id).not.toBe(ownerMe.id);
  await owner.context.close();
  await other.context.close();
});

test('sign-in returns to the page the visitor started from', async ({ page, person }) => {
  await page.goto('/settings');
  await page.getByRole('button', { name: 'Continue to Sign In' }).click();
  await page.getByLabel('Name').fill(person.name);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/settings$/);
});
