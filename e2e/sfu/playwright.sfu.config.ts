import { defineConfig } from '@playwright/test';
import { chromiumArgs } from '../support/chromium-args';

/**
 * Runs only the SFU browser tests, without the app's web server:
 * `npx playwright test -c e2e/sfu/playwright.sfu.config.ts`. The project config (testDir e2e)
 * runs the same specs as part of the whole suite.
 */
export default defineConfig({
  testDir: '.',
  testMatch: ['sfu.spec.ts', 'lossy-network.spec.ts'],
  outputDir: '../../test-results/sfu',
  timeout: 90_000,
  retries: 0,
  reporter: [['list']],
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: chromiumArgs,
    },
  },
});
