import {
  expect,
  test as base,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { newPerson, type Person } from './accounts';

/** Signs in through the landing page and the built-in provider's form, as a person would. */
export async function signIn(
  page: Page,
  name: string,
  email: string,
  password = 'correct horse battery',
): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: 'Continue to Sign In' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}

export interface SignedInUser {
  person: Person;
  context: BrowserContext;
  page: Page;
}

/**
 * Signs the context in through the real flow over HTTP, as a browser's requests would go: `/api/login`
 * to the provider's form, the form posted (same origin), the callback setting the session cookie in
 * the context. The form as a user fills it is tried in sign-in.spec.ts; the other specs only need
 * someone signed in, without rendering two pages per person.
 */
async function signInOverHttp(context: BrowserContext, person: Person): Promise<void> {
  const form = await context.request.get('/api/login', { headers: { accept: 'text/html' } });
  expect(form.ok(), `sign-in form for ${person.email}`).toBe(true);
  const formUrl = new URL(form.url());
  const signedIn = await context.request.post(formUrl.href, {
    form: { name: person.name, email: person.email, password: person.password },
    // A form navigation: the redirects end on the app's page, which answers HTML.
    headers: { origin: formUrl.origin, accept: 'text/html' },
  });
  expect(
    signedIn.ok(),
    `signed in as ${person.email}: ${signedIn.status()} at ${signedIn.url()}`,
  ).toBe(true);
}

/** Signs the page's context in (over HTTP, see above) and opens the app on it, signed in. */
export async function signInAndOpen(page: Page, person: Person): Promise<void> {
  await signInOverHttp(page.context(), person);
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}

/** A new browser context (its own cookies) with a person signed in, showing the app. */
export async function openAs(browser: Browser, person: Person): Promise<SignedInUser> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAndOpen(page, person);
  return { person, context, page };
}

export const test = base.extend<{ person: Person }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies first
  person: async ({}, use) => use(newPerson('Pat')),
});

export { expect };
