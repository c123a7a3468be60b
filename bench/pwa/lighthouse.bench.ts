import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { freePort } from '../../server/src/testing/test-server.js';

/**
 * Lighthouse (mobile preset) on the landing page of the production build, in Debian's Chromium.
 * Goals: performance ≥ 90 and accessibility ≥ 95. Needs `npm run build` first.
 */
const port = await freePort();
const baseUrl = `http://localhost:${port}`;
const server = spawn(process.execPath, ['dist/server/server/src/main.js'], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: baseUrl, DATA_DIR: mkdtempSync(join(tmpdir(), 'chirp-lh-')), LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
try {
  for (let i = 0; i < 100; i++) {
    if (await fetch(`${baseUrl}/readyz`).then((r) => r.ok, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const result = await lighthouse(`${baseUrl}/`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      formFactor: 'mobile',
    });
    const categories = result?.lhr.categories ?? {};
    const score = (key: string) => Math.round((categories[key]?.score ?? 0) * 100);
    console.log(
      `Lighthouse mobile, landing page: performance ${score('performance')} (goal ≥ 90), accessibility ${score('accessibility')} (goal ≥ 95), best practices ${score('best-practices')}`,
    );
    const audits = result?.lhr.audits ?? {};
    for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift']) {
      console.log(`  ${audits[id]?.title ?? id}: ${audits[id]?.displayValue ?? 'n/a'}`);
    }
  } finally {
    chrome.kill();
  }
} finally {
  server.kill();
}
