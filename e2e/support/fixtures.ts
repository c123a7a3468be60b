import { expect, test as base, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { newPerson, type Person } from './accounts';

/** Signs in through the landing page and the built-in provider's form, as a person would. */
export async function signIn(page: Page, name: string, email: string, password = 'correct horse battery'): Promise<void> {
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

/** A new browser context (its own cookies) with a person signed in. */
export async function openAs(browser: Browser, person: Person): Promise<SignedInUser> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, person.name, person.email, person.password);
  return { person, context, page };
}

export const test = base.extend<{ person: Person }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies first
  person: async ({}, use) => use(newPerson('Pat')),
});

export { expect };
