/**
 * ONLINE click → first audio at the listener, for each voice provider, through the whole app: the
 * built server (dist/) on the built-in SFU and on LiveKit, real sign-in, a listener already ONLINE,
 * a talker whose microphone is a steady tone clicking the big button. Rounds alternate between the
 * providers. Covers usage session start, token request, room connection and microphone publish.
 *
 *   npx tsx bench/livekit/online-to-audio.bench.ts [rounds=12]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { launchChromium } from '../../e2e/support/chromium-args.js';
import { claimServer } from '../../e2e/support/claim-server.js';
import {
  freeTcpPort,
  livekitKeys,
  livekitPorts,
  startLivekit,
} from '../../e2e/support/livekit/livekit-server.js';
import { installMicrophone, watchHeard } from '../../e2e/support/voice-audio.js';
import { percentile } from '../stats.js';

const ROUNDS = Math.max(4, Number(process.argv[2] ?? 12));
const binary = process.env.TEST_LIVEKIT_BINARY;
if (!binary) {
  console.log(
    'LiveKit is not installed: run `eval "$(bash scripts/services.sh)"` first. Nothing measured.',
  );
  process.exit(1);
}
if (!existsSync('dist/server/server/src/main.js'))
  spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });

const dir = mkdtempSync(join(tmpdir(), 'chirp-online-bench-'));
const keys = livekitKeys();
const livekit = await startLivekit(binary, { ...(await livekitPorts()), ...keys }, dir);
const children: ChildProcess[] = [];

async function startChirp(name: string, env: Record<string, string>): Promise<string> {
  const port = await freeTcpPort();
  const url = `http://localhost:${port}`;
  const child = spawn(process.execPath, ['dist/server/server/src/main.js'], {
    stdio: 'ignore',
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: join(dir, name),
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  children.push(child);
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return url;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} did not start`);
}

async function signedIn(browser: Browser, baseURL: string, name: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, permissions: ['microphone'] });
  await context.addInitScript(installMicrophone, 'tone' as const);
  const page = await context.newPage();
  await page.goto('/');
  await page.getByRole('button', { name: 'Continue to Sign In' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(`${name.toLowerCase().replace(/\s/g, '.')}@bench.test`);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Logout' }).waitFor();
  return page;
}

const idOf = async (page: Page) =>
  ((await (await page.request.get('/api/auth/user')).json()) as { id: string }).id;

interface Setup {
  provider: string;
  talker: Page;
  listener: Page;
  talkerId: string;
}

/** Owner makes a channel with a talker and a listener; the listener goes ONLINE and stays. */
async function setUp(
  browser: Browser,
  provider: string,
  baseURL: string,
  dataDir: string,
): Promise<Setup> {
  // Only the owner who claimed the server may create channels: claim it as a real owner.
  await claimServer(baseURL, dataDir, {
    name: 'Bench Owner',
    email: 'bench.owner@bench.test',
    password: 'correct horse battery',
  });
  const owner = await signedIn(browser, baseURL, 'Bench Owner');
  const talker = await signedIn(browser, baseURL, 'Bench Talker');
  const listener = await signedIn(browser, baseURL, 'Bench Listener');
  const headers = { origin: baseURL };
  const { id } = (await (
    await owner.request.post('/api/channels', { data: { name: 'Bench' }, headers })
  ).json()) as { id: number };
  for (const page of [talker, listener])
    await owner.request.post(`/api/channels/${id}/members`, {
      data: { userId: await idOf(page) },
      headers,
    });
  await owner.context().close();
  for (const page of [talker, listener]) {
    await page.reload();
    await page.getByRole('button', { name: /Tap to connect/ }).waitFor();
  }
  // The talker's click is stamped in its own page, on the same machine clock as the listener's ear.
  await talker.evaluate(() => {
    document.addEventListener(
      'click',
      (event) => {
        if ((event.target as Element).closest('button')?.textContent?.includes('Tap to connect'))
          (window as unknown as { clickedAt: number }).clickedAt = Date.now();
      },
      true,
    );
  });
  await listener.getByRole('button', { name: /Tap to connect/ }).click();
  await listener.getByText('Voice Ready', { exact: true }).waitFor({ timeout: 30_000 });
  return { provider, talker, listener, talkerId: await idOf(talker) };
}

/** One round: the talker clicks ONLINE; ms until the listener's page hears the tone. */
async function round({ talker, listener, talkerId }: Setup): Promise<number> {
  const heard = await watchHeard(listener, talkerId);
  await talker.getByRole('button', { name: /Tap to connect/ }).click();
  const heardAt = (await heard(20_000)) ?? Number.NaN;
  const clickedAt = await talker.evaluate(
    () => (window as unknown as { clickedAt: number }).clickedAt,
  );
  await talker.getByRole('button', { name: /Tap to disconnect/ }).click();
  await talker.getByText('Voice Ready', { exact: true }).waitFor({ state: 'hidden' });
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  return heardAt - clickedAt;
}

const browser = await launchChromium();
try {
  const embedded = await startChirp('embedded', {});
  const withLivekit = await startChirp('livekit', {
    VOICE_PROVIDER: 'livekit',
    LIVEKIT_URL: livekit.url,
    LIVEKIT_API_KEY: keys.apiKey,
    LIVEKIT_API_SECRET: keys.apiSecret,
  });
  const setups = [
    await setUp(browser, 'built-in SFU', embedded, join(dir, 'embedded')),
    await setUp(browser, 'LiveKit', withLivekit, join(dir, 'livekit')),
  ];
  const results = new Map<string, number[]>(setups.map((setup) => [setup.provider, []]));
  const misses = new Map<string, number>();
  for (let i = 0; i < ROUNDS; i++)
    for (const setup of setups) {
      const ms = await round(setup);
      if (Number.isNaN(ms)) misses.set(setup.provider, (misses.get(setup.provider) ?? 0) + 1);
      else results.get(setup.provider)!.push(ms);
    }
  console.log(`ONLINE click → first audio at the listener (${ROUNDS} rounds each, alternating):`);
  for (const [provider, values] of results)
    console.log(
      `  ${provider.padEnd(14)} p50 ${percentile(values, 50).toFixed(0).padStart(5)} ms  p95 ${percentile(
        values,
        95,
      )
        .toFixed(0)
        .padStart(
          5,
        )} ms  min ${Math.min(...values).toFixed(0)} ms  (${values.length}/${ROUNDS} heard within 20 s${misses.get(provider) ? `, ${misses.get(provider)} not` : ''})`,
    );
} finally {
  await browser.close();
  for (const child of children) child.kill('SIGKILL');
  await livekit.stop();
  rmSync(dir, { recursive: true, force: true });
}
