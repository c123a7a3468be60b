// Ad-hoc screenshots of the first-start work (not part of the suite).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';

const port = 5731;
const base = `http://localhost:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'chirp-shots-'));
const server = spawn('node', ['dist/server/server/src/main.js'], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base, DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', NODE_ENV: 'production', LOG_LEVEL: 'info' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let stderr = '';
server.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
for (let i = 0; ; i++) {
  const ok = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
  if (ok) break;
  if (i > 600) throw new Error('no server: ' + stderr);
  await new Promise((r) => setTimeout(r, 200));
}
writeFileSync('/work/wt/shots/start-banner-stderr.txt', stderr);
const curl = await fetch(`${base}/`, { headers: { accept: '*/*' } });
console.log('GET / with */*:', curl.status, curl.headers.get('content-type'));

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', '--autoplay-policy=no-user-gesture-required'],
});
const sizes = { phone: { width: 390, height: 844 }, desk: { width: 1280, height: 800 } } as const;
async function shoot(page: Page, name: string) {
  await page.waitForTimeout(400);
  await page.screenshot({ path: `/work/wt/shots/start-${name}.png` });
}
async function signIn(page: Page, name: string, email: string) {
  await page.getByRole('button', { name: 'Continue to Sign In' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Logout' }).waitFor();
}

for (const [size, viewport] of Object.entries(sizes)) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(base);
  await page.getByText('By continuing you agree to the').waitFor();
  await shoot(page, `landing-terms-${size}`);
  await page.goto(`${base}/legal/terms`);
  await shoot(page, `terms-page-${size}`);
  await page.goto(`${base}/legal/privacy`);
  await shoot(page, `privacy-page-${size}`);
  await page.goto(base);
  await signIn(page, size === 'phone' ? 'Olga Owner' : 'Pia Person', `${size}@example.com`);
  await page.getByRole('link', { name: 'Claim this server' }).waitFor();
  await shoot(page, `claim-pointer-${size}`);
  await context.close();
}

// The owner claims the server through the pointer, then makes a channel and an invite link.
const owner = await browser.newContext({ viewport: sizes.phone });
const ownerPage = await owner.newPage();
await ownerPage.goto(base);
await signIn(ownerPage, 'Olga Owner', 'phone@example.com');
await ownerPage.getByRole('link', { name: 'Claim this server' }).click();
const code = readFileSync(join(dataDir, 'owner-setup-code'), 'utf8').trim();
await ownerPage.getByLabel('Setup code').fill(code);
await ownerPage.getByRole('button', { name: 'Claim server' }).click();
await ownerPage.getByText('This server is yours').waitFor();
await ownerPage.getByRole('button', { name: 'Back' }).click();
await ownerPage.getByText('Please select a channel to start').waitFor();
await shoot(ownerPage, 'after-claim-phone');
const created = await ownerPage.request.post(`${base}/api/channels`, { data: { name: 'Saturday Hike' }, headers: { origin: base } });
const { id } = (await created.json()) as { id: number };
const minted = await ownerPage.request.post(`${base}/api/invite/generate`, { data: { channelId: id }, headers: { origin: base } });
const { inviteUrl } = (await minted.json()) as { inviteUrl: string };

for (const [size, viewport] of Object.entries(sizes)) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(inviteUrl);
  await page.getByText('Olga Owner invited you to Saturday Hike').waitFor();
  await shoot(page, `invite-${size}`);
  const broken = new URL(inviteUrl);
  broken.searchParams.set('invite', 'x'.repeat(43));
  await page.goto(broken.href);
  await page.getByText('This invite link is invalid or has expired').waitFor();
  await shoot(page, `invite-expired-${size}`);
  await context.close();
}
await browser.close();
server.kill('SIGTERM');
