import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumArgs } from './support/chromium-args';
import { expect, signIn, test } from './support/fixtures';

test('Chromium finds the app installable: valid manifest and service worker', async ({ baseURL }) => {
  // Installability needs a real profile: Playwright's default contexts count as incognito.
  const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'chirp-profile-')), {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs,
    baseURL,
  });
  const page = await context.newPage();
  await page.goto('/');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const cdp = await page.context().newCDPSession(page);
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: { errorId: string }[];
  };
  expect(installabilityErrors).toEqual([]);
  const manifest = (await (await page.request.get('/manifest.webmanifest')).json()) as Record<string, unknown>;
  expect(manifest).toMatchObject({ short_name: 'Chirp', display: 'standalone', start_url: '/' });
  await context.close();
});

test('an already-visited app opens offline with "You are offline", not a browser error', async ({ page, context, person }) => {
  await signIn(page, person.name, person.email);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // The service worker takes control from the next load; that visit fills its cache.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  // Back online, the app reconnects by itself.
  await context.setOffline(false);
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
});
