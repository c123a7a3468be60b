/**
 * Mouth-to-ear and press-to-hear through LiveKit beside the built-in SFU and direct P2P, in one run
 * on one machine: real Chromium, loopback, tone-burst onsets timed on one clock by the SFU latency
 * harness (bench/sfu/harness/latency-entry.ts). LiveKit is a node of the bench's own
 * (TEST_LIVEKIT_BINARY from scripts/services.sh).
 *
 *   npx tsx bench/livekit/provider-latency.bench.ts [samples=100]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import {
  livekitKeys,
  livekitPorts,
  startLivekit,
} from '../../e2e/support/livekit/livekit-server.js';
import { launchChromium } from '../../e2e/support/chromium-args.js';
import { startVoicePageHarness } from '../../e2e/support/voice-page-harness.js';
import { percentile } from '../stats.js';
import { joinLivekitRoom } from './livekit-room-pair.js';
import { collectOnsets as collect } from '../networks/onset-samples.js';
import type { ProviderLatencyBenchGlobal } from './provider-latency-api.js';

const SAMPLES = Math.max(40, Number(process.argv[2] ?? 100));
const PRESS_SAMPLES = 40;
const SECRET = 'bench-provider-secret-bench-provider-secret';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
type G = ProviderLatencyBenchGlobal;

const binary = process.env.TEST_LIVEKIT_BINARY;
if (!binary) {
  console.log(
    'LiveKit is not installed: run `eval "$(bash scripts/services.sh)"` first. Nothing measured.',
  );
  process.exit(1);
}

const line = (label: string, values: number[], wanted: number) =>
  `${label.padEnd(30)} p50 ${percentile(values, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(
    values,
    95,
  )
    .toFixed(1)
    .padStart(6)} ms  (${values.length}/${wanted} samples)`;

const livekitDir = mkdtempSync(join(tmpdir(), 'chirp-provider-bench-'));
const keys = livekitKeys();
const livekit = await startLivekit(binary, { ...(await livekitPorts()), ...keys }, livekitDir);
const harness = await startVoicePageHarness({
  entry: new URL('./harness/provider-latency-entry.ts', import.meta.url),
  secret: SECRET,
  sfu: { iceServers: [] },
});
const browser = await launchChromium();
const openPage = (): Promise<Page> =>
  harness.openPage(browser, {
    ready: () => 'livekitConnect' in ((globalThis as { bench?: object }).bench ?? {}),
  });

const burst = (talker: Page) => async () => {
  const start = await talker.evaluate(() => (globalThis as unknown as G).bench.burst(200));
  await sleep(300);
  return start;
};

/** Press-to-hear: the tone runs; the talker's microphone goes from off to on. */
const press =
  (talker: Page, setMicrophone: (page: Page, on: boolean) => Promise<number>) => async () => {
    const start = await setMicrophone(talker, true);
    await sleep(250);
    await setMicrophone(talker, false);
    await sleep(450);
    return start;
  };

interface Path {
  name: string;
  talker: Page;
  listener: Page;
  /** Switches the talker's microphone for press-to-hear; P2P has no such switch. */
  setMicrophone?: (page: Page, on: boolean) => Promise<number>;
  close(): Promise<void>;
}

async function p2pPath(): Promise<Path> {
  const talker = await openPage();
  const listener = await openPage();
  const offer = await talker.evaluate(() => (globalThis as unknown as G).bench.p2pOffer());
  const answer = await listener.evaluate(
    (sdp) => (globalThis as unknown as G).bench.p2pAnswer(sdp),
    offer,
  );
  await talker.evaluate((sdp) => (globalThis as unknown as G).bench.p2pAccept(sdp), answer);
  return {
    name: 'direct P2P',
    talker,
    listener,
    async close() {
      for (const page of [talker, listener]) await page.context().close();
    },
  };
}

async function sfuPath(): Promise<Path> {
  const talker = await openPage();
  const listener = await openPage();
  const token = (userId: string) => harness.token({ userId, channelId: 'bench' });
  const url = harness.socketUrl();
  await talker.evaluate(([u, t]) => (globalThis as unknown as G).bench.sfuConnect(u, t, true), [
    url,
    await token('talker'),
  ] as const);
  await listener.evaluate(([u, t]) => (globalThis as unknown as G).bench.sfuConnect(u, t, false), [
    url,
    await token('listener'),
  ] as const);
  return {
    name: 'built-in SFU',
    talker,
    listener,
    setMicrophone: (page, on) =>
      page.evaluate((value) => (globalThis as unknown as G).bench.setMicrophone(value), on),
    async close() {
      for (const page of [talker, listener]) {
        await page.evaluate(() => (globalThis as unknown as G).bench.sfuDisconnect());
        await page.context().close();
      }
    },
  };
}

async function livekitPath(): Promise<Path> {
  const talker = await openPage();
  const listener = await openPage();
  await joinLivekitRoom({ url: livekit.url, keys, roomName: 'chirp-bench', talker, listener });
  return {
    name: 'LiveKit',
    talker,
    listener,
    setMicrophone: (page, on) =>
      page.evaluate((value) => (globalThis as unknown as G).bench.livekitSetMicrophone(value), on),
    async close() {
      for (const page of [talker, listener]) {
        await page.evaluate(() => (globalThis as unknown as G).bench.livekitDisconnect());
        await page.context().close();
      }
    },
  };
}

/** Blocks of samples taken in turn from each path, so a machine that slows down hurts all alike. */
const BLOCK = 10;

try {
  const paths = [await p2pPath(), await sfuPath(), await livekitPath()];
  await sleep(2_000);
  const results: Record<string, { mouth: number[]; press?: number[] }> = {};
  for (const path of paths) results[path.name] = { mouth: [] };
  for (let taken = 0; taken < SAMPLES; taken += BLOCK)
    for (const path of paths)
      results[path.name]!.mouth.push(
        ...(await collect(path.listener, Math.min(BLOCK, SAMPLES - taken), burst(path.talker))),
      );

  const switchable = paths.filter((path) => path.setMicrophone);
  for (const path of switchable) {
    await path.setMicrophone!(path.talker, false);
    await path.talker.evaluate(() => (globalThis as unknown as G).bench.toneOn(true));
    results[path.name]!.press = [];
  }
  await sleep(1_000);
  for (let taken = 0; taken < PRESS_SAMPLES; taken += BLOCK)
    for (const path of switchable)
      results[path.name]!.press!.push(
        ...(await collect(
          path.listener,
          Math.min(BLOCK, PRESS_SAMPLES - taken),
          press(path.talker, path.setMicrophone!),
        )),
      );
  for (const path of paths) await path.close();

  console.log(
    `mouth-to-ear (burst start to playout at the listener), interleaved in blocks of ${BLOCK}:`,
  );
  for (const [name, { mouth }] of Object.entries(results))
    console.log(`  ${line(name, mouth, SAMPLES)}`);
  console.log('press-to-hear (microphone on to playout, tone running):');
  for (const [name, { press: pressed }] of Object.entries(results))
    if (pressed) console.log(`  ${line(name, pressed, PRESS_SAMPLES)}`);
  const p50 = (name: string) => percentile(results[name]!.mouth, 50);
  console.log(
    `ratios at p50: LiveKit/P2P ${(p50('LiveKit') / p50('direct P2P')).toFixed(2)}, built-in/P2P ${(p50('built-in SFU') / p50('direct P2P')).toFixed(2)}, built-in/LiveKit ${(p50('built-in SFU') / p50('LiveKit')).toFixed(2)}`,
  );
} finally {
  await browser.close();
  await harness.close();
  await livekit.stop();
  rmSync(livekitDir, { recursive: true, force: true });
}
