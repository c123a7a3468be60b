/**
 * Voice over impaired networks: the same talker/listener pair in Chromium (real audio, the app's
 * own transports) through the built-in SFU, through LiveKit and browser-to-browser, in one run,
 * with the listener's traffic carried by a user-space UDP relay (e2e/support/network/) that loses,
 * delays and caps it. One link is impaired in every path — the listener's (for P2P, the one link
 * between the browsers) — so the three paths meet the same network.
 *
 * For each path and condition, measured at the listener: concealed-sample ratio (getStats),
 * speech continuity of a known signal (speech-continuity.ts), mouth-to-ear p50/p95 (tone bursts),
 * press-to-hear p50 (microphone on while the tone runs), jitter-buffer delay (while speech flows,
 * and over talks after pauses with the microphone off), and bits per second on the wire towards
 * the listener while talking, while silent (microphone on, no sound) and, where the path has a
 * microphone switch, while the microphone is off between talks.
 *
 *   npx tsx bench/networks/networks.bench.ts [quick]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumArgs } from '../../e2e/support/chromium-args.js';
import {
  livekitKeys,
  livekitPorts,
  startLivekit,
} from '../../e2e/support/livekit/livekit-server.js';
import {
  outwardAddress,
  seededRandom,
  startImpairmentRelay,
  type LinkConditions,
} from '../../e2e/support/network/impairment-relay.js';
import { routeThroughRelay } from '../../e2e/support/network/relay-routing.js';
import { startVoicePageHarness } from '../../e2e/support/voice-page-harness.js';
import { percentile } from '../stats.js';
import { joinLivekitRoom } from '../livekit/livekit-room-pair.js';
import type { ListenerStats, NetworksBenchGlobal } from './networks-bench-api.js';
import { collectOnsets } from './onset-samples.js';

type G = NetworksBenchGlobal;
const SECRET = 'bench-networks-secret-bench-networks-secret';
/**
 * Speech measured per path and condition. Bursts (mean 3 packets at 10 % loss) come about eight
 * times in 5 s, so a 5 s window moved concealment by ±40 % between runs; 15 s holds ~25 bursts.
 */
const SPEECH_MS = Number(process.env.BENCH_SPEECH_MS ?? 15_000);
/** Speech before and after the measured window (see `measure`). */
const SPEECH_LEAD_MS = 700;
const SPEECH_TAIL_MS = 500;
const BURSTS = 10;
const PRESSES = 10;
/** Talks of this length, each after as long with the microphone off (the jitter buffer's figure). */
const TALKS = 5;
const TALK_MS = 1_500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const quick = process.argv.includes('quick');
const CONDITIONS: { name: string; conditions: LinkConditions }[] = [
  { name: 'clean', conditions: {} },
  ...(quick ? [] : [{ name: '5 % loss', conditions: { loss: 0.05 } }]),
  { name: '10 % loss', conditions: { loss: 0.1 } },
  { name: '20 % loss', conditions: { loss: 0.2 } },
  ...(quick
    ? []
    : [
        { name: 'bursts (10 %, mean 3)', conditions: { loss: 0.1, meanBurst: 3 } },
        { name: '50 ± 30 ms jitter', conditions: { delayMs: 50, jitterMs: 30 } },
        { name: '64 kbit/s cap', conditions: { rateKbps: 64, queueLimitMs: 500 } },
      ]),
];

// BENCH_CONDITIONS='20 % loss,bursts' measures only the conditions whose names start so.
const onlyConditions = process.env.BENCH_CONDITIONS?.split(',');
const measuredConditions = onlyConditions
  ? CONDITIONS.filter(({ name }) => onlyConditions.some((start) => name.startsWith(start)))
  : CONDITIONS;

const binary = process.env.TEST_LIVEKIT_BINARY;
if (!binary) {
  console.log(
    'LiveKit is not installed: run `eval "$(bash scripts/services.sh)"` first. Nothing measured.',
  );
  process.exit(1);
}

const relay = startImpairmentRelay({ random: seededRandom(28) });
const livekitDir = mkdtempSync(join(tmpdir(), 'chirp-networks-bench-'));
const keys = livekitKeys();
const livekit = await startLivekit(
  binary,
  { ...(await livekitPorts()), ...keys, iceLite: true, nodeIp: outwardAddress(), logLevel: 'warn' },
  livekitDir,
);
const harness = await startVoicePageHarness({
  entry: new URL('./harness/networks-entry.ts', import.meta.url),
  secret: SECRET,
  sfu: { iceServers: [] },
});
// Real addresses in P2P candidates (not mDNS names), so the relay can carry them.
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [...chromiumArgs, '--disable-features=WebRtcHideLocalIpsWithMdns'],
});

const openPage = (link?: string): Promise<Page> =>
  harness.openPage(browser, {
    ready: () => 'stats' in ((globalThis as { bench?: object }).bench ?? {}),
    prepare: link ? (context) => routeThroughRelay(context, relay, link) : undefined,
    logErrorsAs: link,
  });

interface Path {
  name: string;
  talker: Page;
  listener: Page;
  /** The relay links that carry this path's impaired traffic. */
  links: string[];
  /** IP bytes towards the listener so far. */
  bytesToListener(): number;
  setMicrophone?: (on: boolean) => Promise<number>;
  close(): Promise<void>;
}

const closePages = async (...pages: Page[]) => {
  for (const page of pages) await page.context().close();
};

async function p2pPath(): Promise<Path> {
  const talker = await openPage('p2p-talker');
  const listener = await openPage('p2p-listener');
  const offer = await talker.evaluate(() => (globalThis as unknown as G).bench.p2pOffer());
  const answer = await listener.evaluate(
    (sdp) => (globalThis as unknown as G).bench.p2pAnswer(sdp),
    offer,
  );
  await talker.evaluate((sdp) => (globalThis as unknown as G).bench.p2pAccept(sdp), answer);
  return {
    name: 'P2P',
    talker,
    listener,
    // Only one of the two carries the selected pair, both ways.
    links: ['p2p-talker', 'p2p-listener'],
    bytesToListener: () =>
      relay.counters('p2p-talker').up.bytes + relay.counters('p2p-listener').down.bytes,
    close: () => closePages(talker, listener),
  };
}

async function sfuPath(): Promise<Path> {
  const talker = await openPage();
  const listener = await openPage('built-in');
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
    name: 'built-in',
    talker,
    listener,
    links: ['built-in'],
    bytesToListener: () => relay.counters('built-in').down.bytes,
    setMicrophone: (on) =>
      talker.evaluate((value) => (globalThis as unknown as G).bench.setMicrophone(value), on),
    async close() {
      for (const page of [talker, listener])
        await page.evaluate(() => (globalThis as unknown as G).bench.sfuDisconnect());
      await closePages(talker, listener);
    },
  };
}

async function livekitPath(): Promise<Path> {
  const talker = await openPage();
  const listener = await openPage('LiveKit');
  await joinLivekitRoom({
    url: livekit.url,
    keys,
    roomName: 'chirp-networks-bench',
    talker,
    listener,
  });
  return {
    name: 'LiveKit',
    talker,
    listener,
    links: ['LiveKit'],
    bytesToListener: () => relay.counters('LiveKit').down.bytes,
    setMicrophone: (on) =>
      talker.evaluate(
        (value) => (globalThis as unknown as G).bench.livekitSetMicrophone(value),
        on,
      ),
    async close() {
      for (const page of [talker, listener])
        await page.evaluate(() => (globalThis as unknown as G).bench.livekitDisconnect());
      await closePages(talker, listener);
    },
  };
}

interface Figures {
  concealment: number;
  continuity: number;
  mouthP50: number;
  mouthP95: number;
  pressP50?: number;
  jitterBufferMs: number;
  /**
   * The listener's jitter buffer over talks of 1.5 s, each after 1.5 s with the microphone off: a
   * talker's RTP clock that loses the pauses makes each talk's first packet look seconds late, and
   * Chrome's buffer then holds ~470 ms in some talks (not all) while press-to-hear (the first onset)
   * still looks fast.
   */
  talksJitterBufferMs?: number;
  talkingKbps: number;
  silentKbps: number;
  /** While the microphone is off (the tone still playing into it); paths with a switch only. */
  offKbps?: number;
  codec: string;
}

const stats = (page: Page) => page.evaluate(() => (globalThis as unknown as G).bench.stats());
const delta = (after: ListenerStats, before: ListenerStats, key: keyof ListenerStats) =>
  (after[key] as number) - (before[key] as number);

async function measure(path: Path, seed: number): Promise<Figures> {
  const { talker, listener } = path;
  // Speech: concealment, continuity, jitter buffer and bits while talking. The talker speaks for
  // LEAD + SPEECH_MS + TAIL; concealment, the jitter buffer and the bit rate are taken over the
  // SPEECH_MS in the middle, while speech flows, so that the decoder's comfort noise between a
  // talk and the next (DTX) is not counted as concealed speech. Continuity scores the whole talk,
  // its first and last syllables included.
  const talkMs = SPEECH_LEAD_MS + SPEECH_MS + SPEECH_TAIL_MS;
  await listener.evaluate(() => (globalThis as unknown as G).bench.startRecording());
  const speechStart = await talker.evaluate(
    ([s, ms]) => (globalThis as unknown as G).bench.speech(s, ms),
    [seed, talkMs] as const,
  );
  await sleep(Math.max(0, speechStart + SPEECH_LEAD_MS - Date.now()));
  const before = await stats(listener);
  const talkBytes0 = path.bytesToListener();
  await sleep(SPEECH_MS);
  const talkBytes1 = path.bytesToListener();
  const after = await stats(listener);
  await sleep(Math.max(0, speechStart + talkMs + 700 - Date.now()));
  const continuity = await listener.evaluate(
    ([s, ms, start]) => (globalThis as unknown as G).bench.scoreRecording(s, ms, start),
    [seed, talkMs, speechStart] as const,
  );
  // Silence: the microphone stays on, nothing is said.
  await sleep(1_000);
  const silentBytes0 = path.bytesToListener();
  await sleep(3_000);
  const silentBytes1 = path.bytesToListener();

  const burst = async () => {
    const start = await talker.evaluate(() => (globalThis as unknown as G).bench.burst(200));
    await sleep(300);
    return start;
  };
  const mouth = await collectOnsets(listener, BURSTS, burst);

  let press: number[] | undefined;
  let offKbps: number | undefined;
  let talksJitterBufferMs: number | undefined;
  const setMicrophone = path.setMicrophone;
  if (setMicrophone) {
    await setMicrophone(false);
    await talker.evaluate(() => (globalThis as unknown as G).bench.toneOn(true));
    // Between talks: what still reaches the listener with the microphone off.
    await sleep(1_000);
    const offBytes0 = path.bytesToListener();
    await sleep(3_000);
    offKbps = ((path.bytesToListener() - offBytes0) * 8) / 3_000;
    press = await collectOnsets(listener, PRESSES, async () => {
      const start = await setMicrophone(true);
      await sleep(250);
      await setMicrophone(false);
      await sleep(450);
      return start;
    });
    const talks0 = await stats(listener);
    for (let i = 0; i < TALKS; i++) {
      await sleep(TALK_MS);
      await setMicrophone(true);
      await sleep(TALK_MS);
      await setMicrophone(false);
    }
    const talks1 = await stats(listener);
    const talksEmitted = delta(talks1, talks0, 'jitterBufferEmittedCount');
    talksJitterBufferMs =
      talksEmitted > 0 ? (delta(talks1, talks0, 'jitterBufferDelay') / talksEmitted) * 1000 : NaN;
    await talker.evaluate(() => (globalThis as unknown as G).bench.toneOn(false));
    await setMicrophone(true);
  }

  const emitted = delta(after, before, 'jitterBufferEmittedCount');
  return {
    concealment:
      delta(after, before, 'concealedSamples') /
      Math.max(1, delta(after, before, 'totalSamplesReceived')),
    continuity: continuity.score,
    mouthP50: percentile(mouth, 50),
    mouthP95: percentile(mouth, 95),
    pressP50: press ? percentile(press, 50) : undefined,
    jitterBufferMs:
      emitted > 0 ? (delta(after, before, 'jitterBufferDelay') / emitted) * 1000 : NaN,
    talksJitterBufferMs,
    talkingKbps: ((talkBytes1 - talkBytes0) * 8) / SPEECH_MS,
    silentKbps: ((silentBytes1 - silentBytes0) * 8) / 3_000,
    offKbps,
    codec: after.codec.replace('audio/', ''),
  };
}

const results = new Map<string, Map<string, Figures>>();
const pct = (value: number) => `${(value * 100).toFixed(2)} %`;
const ms = (value: number | undefined) =>
  value === undefined || Number.isNaN(value) ? '—' : `${value.toFixed(0)} ms`;

try {
  // BENCH_PATHS=built-in,LiveKit measures only those (while working on one of them).
  const only = process.env.BENCH_PATHS?.split(',');
  const makers = { P2P: p2pPath, 'built-in': sfuPath, LiveKit: livekitPath };
  const paths: Path[] = [];
  for (const [name, make] of Object.entries(makers))
    if (!only || only.includes(name)) paths.push(await make());
  await sleep(2_000);
  let seed = 1;
  for (const { name, conditions } of measuredConditions) {
    for (const path of paths) for (const link of path.links) relay.setConditions(link, conditions);
    await sleep(1_500);
    const row = new Map<string, Figures>();
    for (const path of paths) row.set(path.name, await measure(path, seed++));
    results.set(name, row);
    console.log(`measured: ${name}`);
  }
  for (const path of paths) await path.close();

  console.log(
    '\ncondition               path      codec  conceal.  continuity  mouth p50/p95   press p50  jitter buf     (talks)  kbit/s talk/silent/off',
  );
  for (const [condition, row] of results)
    for (const [name, f] of row)
      console.log(
        `${condition.padEnd(23)} ${name.padEnd(9)} ${f.codec.padEnd(6)} ${pct(f.concealment).padStart(8)}  ${pct(
          f.continuity,
        ).padStart(
          9,
        )}  ${`${ms(f.mouthP50)}/${ms(f.mouthP95)}`.padStart(14)}  ${ms(f.pressP50).padStart(9)}  ${ms(
          f.jitterBufferMs,
        ).padStart(
          10,
        )}  ${ms(f.talksJitterBufferMs).padStart(10)}  ${f.talkingKbps.toFixed(1).padStart(6)} / ${f.silentKbps.toFixed(1)} / ${
          f.offKbps === undefined ? '—' : f.offKbps.toFixed(1)
        }`,
      );

  console.log('');
  const ratio = (a: number, b: number) =>
    b > 0 ? (a / b).toFixed(2) : a > 0 ? '∞' : '1.00 (both 0)';
  for (const condition of results.keys()) {
    if (condition === 'clean') continue;
    const row = results.get(condition)!;
    const builtIn = row.get('built-in');
    if (!builtIn) continue;
    for (const other of ['LiveKit', 'P2P'].filter((name) => row.has(name)))
      console.log(
        `built-in/${other} concealment at ${condition}: ${ratio(builtIn.concealment, row.get(other)!.concealment)}`,
      );
  }
  for (const [condition, row] of results)
    for (const name of ['built-in', 'LiveKit']) {
      const f = row.get(name);
      if (f?.pressP50 !== undefined)
        console.log(
          `${name} press-to-hear minus mouth-to-ear at ${condition}: ${(f.pressP50 - f.mouthP50).toFixed(0)} ms`,
        );
    }
  for (const [name, f] of results.get('clean') ?? [])
    console.log(
      `${name} bits while silent / talking (clean): ${ratio(f.silentKbps, f.talkingKbps)}`,
    );
  for (const [name, f] of results.get('clean') ?? [])
    if (f.offKbps !== undefined)
      console.log(
        `${name} bits while the microphone is off / talking (clean): ${ratio(f.offKbps, f.talkingKbps)}`,
      );
} finally {
  await browser.close();
  await harness.close();
  await livekit.stop();
  await relay.close();
  rmSync(livekitDir, { recursive: true, force: true });
}
