/**
 * Mouth-to-ear latency through the built-in SFU versus a direct browser-to-browser connection,
 * and press-to-hear for a connected talker who turns its microphone on. Real Chromium, loopback,
 * tone-burst onsets timed on one machine clock (see harness/latency-entry.ts).
 *
 *   npx tsx bench/sfu/sfu-latency.bench.ts [samples=120]
 */
import type { Page } from '@playwright/test';
import { launchChromium } from '../../e2e/support/chromium-args.js';
import { startVoicePageHarness } from '../../e2e/support/voice-page-harness.js';
import type { LatencyBenchGlobal, LatencyOnset } from './latency-bench-api.js';

const SAMPLES = Math.max(100, Number(process.argv[2] ?? 120));
const PRESS_SAMPLES = 40;
const SECRET = 'bench-latency-secret-bench-latency-secret';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ??
    Number.NaN
  );
}

/** Pairs each start with the first onset played after it (and before the next start). */
function matchOnsets(starts: number[], onsets: LatencyOnset[]): Samples {
  const samples: Samples = { played: [], detected: [], firstLevels: [] };
  starts.forEach((start, i) => {
    const next = starts[i + 1] ?? Number.POSITIVE_INFINITY;
    const onset = onsets.find((o) => o.played >= start - 2 && o.played < next);
    if (!onset) return;
    samples.played.push(onset.played - start);
    samples.detected.push(onset.detected - start);
    if (onset.firstLevel !== undefined) samples.firstLevels.push(onset.firstLevel);
  });
  return samples;
}

interface Samples {
  /** Burst start to the onset leaving the listener's audio output (includes its output buffer). */
  played: number[];
  /** Burst start to the listener's page seeing the onset (decoded audio, before output buffering). */
  detected: number[];
  /** RMS of the first 20 ms heard from each onset on. */
  firstLevels: number[];
}

async function collect(
  listener: Page,
  count: number,
  fire: () => Promise<number>,
): Promise<Samples> {
  for (let i = 0; i < 5; i++) await fire(); // warm the jitter buffer up; not counted
  await sleep(500);
  await listener.evaluate(() => (globalThis as unknown as LatencyBenchGlobal).bench.takeOnsets());
  const starts: number[] = [];
  for (let i = 0; i < count; i++) starts.push(await fire());
  await sleep(800);
  const onsets = await listener.evaluate(() =>
    (globalThis as unknown as LatencyBenchGlobal).bench.takeOnsets(),
  );
  return matchOnsets(starts, onsets);
}

const line = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(values, 95).toFixed(1).padStart(6)} ms`;
const describe = (label: string, samples: Samples, wanted: number) =>
  `${label.padEnd(28)} to playout ${line(samples.played)} | to detection ${line(samples.detected)}  (${samples.played.length}/${wanted} samples)`;

const harness = await startVoicePageHarness({
  entry: new URL('./harness/latency-entry.ts', import.meta.url),
  secret: SECRET,
  sfu: { iceServers: [] },
});
const browser = await launchChromium();
const openPage = (): Promise<Page> =>
  harness.openPage(browser, { ready: () => 'bench' in globalThis });

try {
  const burst = (talker: Page) => async () => {
    const start = await talker.evaluate(() =>
      (globalThis as unknown as LatencyBenchGlobal).bench.burst(200),
    );
    await sleep(300);
    return start;
  };

  // Direct P2P: the reference path.
  const p2pTalker = await openPage();
  const p2pListener = await openPage();
  const offer = await p2pTalker.evaluate(() =>
    (globalThis as unknown as LatencyBenchGlobal).bench.p2pOffer(),
  );
  const answer = await p2pListener.evaluate(
    (sdp) => (globalThis as unknown as LatencyBenchGlobal).bench.p2pAnswer(sdp),
    offer,
  );
  await p2pTalker.evaluate(
    (sdp) => (globalThis as unknown as LatencyBenchGlobal).bench.p2pAccept(sdp),
    answer,
  );
  await sleep(1_000);
  const p2p = await collect(p2pListener, SAMPLES, burst(p2pTalker));
  console.log(describe('mouth-to-ear, direct P2P', p2p, SAMPLES));
  await p2pTalker.evaluate(() => (globalThis as unknown as LatencyBenchGlobal).bench.p2pClose());
  await p2pListener.evaluate(() => (globalThis as unknown as LatencyBenchGlobal).bench.p2pClose());
  await p2pTalker.context().close();
  await p2pListener.context().close();

  // Through the SFU.
  const talker = await openPage();
  const listener = await openPage();
  const token = (userId: string) => harness.token({ userId, channelId: 'bench' });
  const url = harness.socketUrl();
  await talker.evaluate(
    ([u, t]) => (globalThis as unknown as LatencyBenchGlobal).bench.sfuConnect(u, t, true),
    [url, await token('talker')] as const,
  );
  await listener.evaluate(
    ([u, t]) => (globalThis as unknown as LatencyBenchGlobal).bench.sfuConnect(u, t, false),
    [url, await token('listener')] as const,
  );
  await sleep(1_500);
  const viaSfu = await collect(listener, SAMPLES, burst(talker));
  console.log(describe('mouth-to-ear, via SFU', viaSfu, SAMPLES));

  // Press-to-hear: the tone runs; the talker's microphone goes from disabled to enabled.
  await talker.evaluate(() =>
    (globalThis as unknown as LatencyBenchGlobal).bench.setMicrophone(false),
  );
  await talker.evaluate(() => (globalThis as unknown as LatencyBenchGlobal).bench.toneOn(true));
  await sleep(1_000);
  const press = await collect(listener, PRESS_SAMPLES, async () => {
    const start = await talker.evaluate(() =>
      (globalThis as unknown as LatencyBenchGlobal).bench.setMicrophone(true),
    );
    await sleep(250);
    await talker.evaluate(() =>
      (globalThis as unknown as LatencyBenchGlobal).bench.setMicrophone(false),
    );
    await sleep(450);
    return start;
  });
  console.log(describe('press-to-hear, via SFU', press, PRESS_SAMPLES));
  const slow = press.played.filter((ms) => ms > 200).map((ms) => Math.round(ms));
  if (slow.length > 0) console.log(`  press-to-hear samples over 200 ms: ${slow.join(', ')}`);

  for (const kind of ['played', 'detected'] as const) {
    const ratio = percentile(viaSfu[kind], 50) / percentile(p2p[kind], 50);
    const ratio95 = percentile(viaSfu[kind], 95) / percentile(p2p[kind], 95);
    console.log(
      `SFU / P2P ratio (to ${kind === 'played' ? 'playout' : 'detection'}): p50 ${ratio.toFixed(2)}, p95 ${ratio95.toFixed(2)}` +
        ` (goal ≤ 1.1); SFU p50 ${percentile(viaSfu[kind], 50).toFixed(1)} ms (goal ≤ 70 ms)`,
    );
  }
  console.log(
    `press-to-hear p50 ${percentile(press.played, 50).toFixed(1)} ms to playout, ${percentile(press.detected, 50).toFixed(1)} ms to detection (goal ≤ 120 ms)`,
  );
  // Pressing must cost no more than speaking into an open microphone, and must
  // not clip the start: the first 20 ms after pressing are as loud as a burst's first 20 ms.
  for (const kind of ['played', 'detected'] as const) {
    const extra = percentile(press[kind], 50) - percentile(viaSfu[kind], 50);
    console.log(
      `press-to-hear minus mouth-to-ear, p50 to ${kind === 'played' ? 'playout' : 'detection'}: ${extra.toFixed(1)} ms (goal ≤ 20 ms)`,
    );
  }
  const firstLevel = percentile(press.firstLevels, 50) / percentile(viaSfu.firstLevels, 50);
  console.log(
    `first 20 ms after pressing, level against a burst's first 20 ms: ${firstLevel.toFixed(2)} at p50 (goal ≥ 0.9: the first syllable is not clipped)`,
  );
  await talker.evaluate(() => (globalThis as unknown as LatencyBenchGlobal).bench.sfuDisconnect());
  await listener.evaluate(() =>
    (globalThis as unknown as LatencyBenchGlobal).bench.sfuDisconnect(),
  );
} finally {
  await browser.close();
  await harness.close();
}
