/**
 * Battery and heat of a walkie-talkie left on: a listener ONLINE in a channel on the built-in SFU,
 * with a second member ONLINE beside it, both silent for N minutes. The built server (dist/), real
 * sign-in, Debian's Chromium with software compositing (`--disable-gpu`), a microphone that
 * captures silence through Chromium's own fake device (a silent WAV file, so capture runs in the
 * audio service as a real microphone's does). The listener has a Chromium of its own, so every
 * process of that browser (renderer, GPU/compositor, audio and network services) is the page's cost.
 *
 * Prints, for the page signed in but OFFLINE, ONLINE and silent, and ONLINE while the other member
 * talks: CPU (% of one core, from /proc) and wake-ups (context switches per second) per Chromium
 * process, the page's main-thread work (CDP Performance.getMetrics), animation-frame and timer
 * callbacks per second and the CSS animations running, and the server process's CPU, wake-ups,
 * SFU packets and HTTP requests per idle listener. Saves a screenshot of the listener's page while
 * silent and while a voice is heard.
 *
 *   npm run bench idle-listener [minutes=5] [baseline=30] [voice=20] [shots=DIR] [dtx=1]
 *   npx tsx bench/battery/idle-listener.bench.ts minutes=1
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserServer, type Page } from '@playwright/test';
import { chromiumArgs } from '../../e2e/support/chromium-args.js';
import { claimServer } from '../../e2e/support/claim-server.js';
import { freeTcpPort } from '../../e2e/support/livekit/livekit-server.js';
import {
  chromiumRole,
  processTree,
  snapshot,
  sum,
  usedBetween,
  type Snapshot,
  type Usage,
} from './process-usage.js';

const args = new Map(
  process.argv
    .slice(2)
    .map((arg) => arg.split('='))
    .filter((pair): pair is [string, string] => pair.length === 2),
);
const numberArg = (name: string, fallback: number) => {
  const value = Number(args.get(name));
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const MINUTES = numberArg('minutes', 5);
const BASELINE_S = numberArg('baseline', 30);
const VOICE_S = numberArg('voice', 20);
/** `dtx=1`: the bench turns Opus DTX on in both browsers (what DTX would save; not the product's). */
const DTX = args.get('dtx') === '1';
const WARM_UP_S = 10;
const NUDGE_EVERY_MS = 20_000;
const PASSWORD = 'correct horse battery';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (!existsSync('dist/server/server/src/main.js'))
  spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });

const dir = mkdtempSync(join(tmpdir(), 'chirp-idle-listener-'));
const shots = args.get('shots') ?? join(tmpdir(), 'chirp-idle-listener-shots');
mkdirSync(shots, { recursive: true });

/** One second of 16-bit mono silence at 48 kHz, which Chromium's fake microphone loops. */
function silentWav(path: string): void {
  const rate = 48_000;
  const data = rate * 2;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data, 40);
  writeFileSync(path, Buffer.concat([header, Buffer.alloc(data)]));
}

/** The talker's microphone: silence until the bench turns its voice (a 440 Hz tone) on. */
function installSwitchableVoice(): void {
  navigator.mediaDevices.getUserMedia = (constraints?: MediaStreamConstraints) => {
    if (!constraints?.audio) return Promise.reject(new DOMException('No audio', 'NotFoundError'));
    const context = new AudioContext();
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    gain.gain.value = 0;
    oscillator.frequency.value = 440;
    const destination = context.createMediaStreamDestination();
    oscillator.connect(gain).connect(destination);
    oscillator.start();
    (window as unknown as { benchVoice: (on: boolean) => void }).benchVoice = (on) => {
      gain.gain.value = on ? 0.5 : 0;
    };
    return Promise.resolve(destination.stream);
  };
}

interface PageCounters {
  animationFrames: number;
  timers: number;
}

/**
 * Counts the page's animation-frame and timer callbacks (each one wakes its main thread). Plain
 * JavaScript text: tsx would wrap named functions of a TypeScript one in a helper the page lacks.
 */
const wakeUpCounters = `(() => {
  const counters = { animationFrames: 0, timers: 0 };
  window.benchCounters = counters;
  const frame = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) =>
    frame((time) => { counters.animationFrames++; callback(time); });
  for (const name of ['setTimeout', 'setInterval']) {
    const original = window[name].bind(window);
    window[name] = (handler, ms, ...rest) =>
      original(
        typeof handler === 'function'
          ? (...inner) => { counters.timers++; handler(...inner); }
          : handler,
        ms,
        ...rest,
      );
  }
})();`;

/** Asks every browser encoder for Opus DTX, as if the server's offer carried `usedtx=1`. */
const forceDtx = `(() => {
  const set = RTCPeerConnection.prototype.setRemoteDescription;
  RTCPeerConnection.prototype.setRemoteDescription = function (description, ...rest) {
    if (description && description.sdp)
      description = {
        type: description.type,
        sdp: description.sdp.replace(/^(a=fmtp:111 .*)$/gm, (line) =>
          line.includes('usedtx') ? line : line + ';usedtx=1'),
      };
    return set.call(this, description, ...rest);
  };
})();`;

/** The CSS and Web animations running now, named by animation and the element they move. */
function runningAnimations(): string[] {
  return document
    .getAnimations()
    .filter((animation) => animation.playState === 'running')
    .map((animation) => {
      const name =
        (animation as Animation & { animationName?: string }).animationName ?? animation.id;
      const target = (animation.effect as KeyframeEffect | null)?.target;
      const label = target
        ? `${target.tagName.toLowerCase()}${target.getAttribute('data-status') ? `[data-status=${target.getAttribute('data-status')}]` : ''}.${(target.getAttribute('class') ?? '').split(/\s+/).slice(0, 4).join('.')}`
        : '?';
      return `${name || 'animation'} on ${label}`;
    });
}

const children: ChildProcess[] = [];

async function startChirp(): Promise<{ url: string; pid: number; dataDir: string }> {
  const port = await freeTcpPort();
  const url = `http://localhost:${port}`;
  const dataDir = join(dir, 'data');
  const child = spawn(process.execPath, ['dist/server/server/src/main.js'], {
    stdio: 'ignore',
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
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
      return { url, pid: child.pid!, dataDir };
    await sleep(100);
  }
  throw new Error('the server did not start');
}

async function signedIn(
  browser: Browser,
  baseURL: string,
  name: string,
  init?: (() => void) | { content: string },
): Promise<Page> {
  const context = await browser.newContext({ baseURL, permissions: ['microphone'] });
  if (init) await context.addInitScript(init);
  if (DTX) await context.addInitScript({ content: forceDtx });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByRole('button', { name: 'Continue to Sign In' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(`${name.toLowerCase().replace(/\s/g, '.')}@bench.test`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Logout' }).waitFor();
  return page;
}

const idOf = async (page: Page) =>
  ((await (await page.request.get('/api/auth/user')).json()) as { id: string }).id;

/** Counters from the server's own `/metrics` (loopback may read it). */
async function serverCounters(baseURL: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${baseURL}/metrics`)).text();
  const total = (pattern: RegExp) =>
    text
      .split('\n')
      .filter((line) => pattern.test(line))
      .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
  return {
    packetsIn: total(/^chirp_sfu_packets_received_total /),
    packetsOut: total(/^chirp_sfu_packets_forwarded_total /),
    // Scrapes of /metrics itself are not recorded by route, so they add nothing here.
    requests: total(/^chirp_http_request_duration_seconds_count\{/),
  };
}

interface Phase {
  label: string;
  seconds: number;
  listener: Snapshot;
  server: Usage;
  main: Record<string, number>;
  page: PageCounters;
  sfu: Record<string, number>;
  /** Running at the start and at the end of the phase. */
  animationsAtStart: string[];
  animations: string[];
}

interface Rig {
  listenerServer: BrowserServer;
  listener: Page;
  /** Both members' pages: nudged now and then, as a hand on the phone, so neither goes idle. */
  pages: Page[];
  serverPid: number;
  baseURL: string;
}

async function measure(rig: Rig, label: string, seconds: number): Promise<Phase> {
  const { listener } = rig;
  const cdp = await listener.context().newCDPSession(listener);
  await cdp.send('Performance.enable');
  const metrics = async () =>
    Object.fromEntries(
      (await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]),
    );
  const counters = () =>
    listener.evaluate(() => ({
      ...(window as unknown as { benchCounters: PageCounters }).benchCounters,
    }));
  const tree = () => processTree(rig.listenerServer.process().pid!);

  const animationsAtStart = await listener.evaluate(runningAnimations);
  const main0 = await metrics();
  const page0 = await counters();
  const sfu0 = await serverCounters(rig.baseURL);
  const listener0 = snapshot(tree());
  const server0 = snapshot([rig.serverPid]);
  const started = performance.now();
  // Spec §4 idle detection takes a user with no input for 1–3 minutes off the voice room: a mouse
  // move on an empty margin every 20 s keeps both ONLINE without touching anything on the page.
  let nudges = 0;
  while (performance.now() - started < seconds * 1000) {
    await sleep(Math.min(NUDGE_EVERY_MS, seconds * 1000 - (performance.now() - started)));
    nudges++;
    for (const page of rig.pages) await page.mouse.move(24 + (nudges % 2) * 4, 300);
  }
  const listener1 = snapshot(tree());
  const server1 = snapshot([rig.serverPid]);
  const elapsed = (performance.now() - started) / 1000;
  const sfu1 = await serverCounters(rig.baseURL);
  const page1 = await counters();
  const main1 = await metrics();
  const animations = await listener.evaluate(runningAnimations);
  await cdp.detach();
  const delta = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(Object.keys(b).map((key) => [key, (b[key] ?? 0) - (a[key] ?? 0)]));
  return {
    label,
    seconds: elapsed,
    listener: usedBetween(listener0, listener1),
    server: sum(usedBetween(server0, server1).values()),
    main: delta(main0, main1),
    page: {
      animationFrames: page1.animationFrames - page0.animationFrames,
      timers: page1.timers - page0.timers,
    },
    sfu: delta(sfu0, sfu1),
    animationsAtStart,
    animations,
  };
}

const percent = (cpuSeconds: number, seconds: number) => (100 * cpuSeconds) / seconds;
const fixed = (value: number, digits = 1) => (Number.isNaN(value) ? 'n/a' : value.toFixed(digits));

function report(phase: Phase, onlineListeners: number): void {
  const { seconds } = phase;
  const byRole = new Map<string, Usage[]>();
  for (const [pid, usage] of phase.listener) {
    const role = chromiumRole(pid);
    byRole.set(role, [...(byRole.get(role) ?? []), usage]);
  }
  const roles = [...byRole.entries()]
    .map(([role, usages]) => [role, sum(usages)] as const)
    .filter(([, usage]) => usage.cpuSeconds > 0 || usage.contextSwitches > 0)
    .sort((a, b) => b[1].cpuSeconds - a[1].cpuSeconds);
  const total = sum(phase.listener.values());
  console.log(`\n${phase.label} (${fixed(seconds, 0)} s)`);
  console.log(
    `  listener's Chromium, % of a core:  ${roles.map(([role, u]) => `${role} ${fixed(percent(u.cpuSeconds, seconds))}`).join(' | ')} | all ${fixed(percent(total.cpuSeconds, seconds))}`,
  );
  console.log(
    `  listener's Chromium, wake-ups/s:   ${roles.map(([role, u]) => `${role} ${fixed(u.contextSwitches / seconds, 0)}`).join(' | ')} | all ${fixed(total.contextSwitches / seconds, 0)}`,
  );
  const main = (name: string) => percent(phase.main[name] ?? 0, seconds);
  console.log(
    `  page main thread (CDP):            tasks ${fixed(main('TaskDuration'), 2)} % | script ${fixed(main('ScriptDuration'), 2)} % | style ${fixed(main('RecalcStyleDuration'), 2)} % | layout ${fixed(main('LayoutDuration'), 2)} % of a core; ${fixed((phase.main.RecalcStyleCount ?? 0) / seconds, 2)} style recalcs/s`,
  );
  console.log(
    `  page callbacks/s:                  animation frames ${fixed(phase.page.animationFrames / seconds, 2)} | timers ${fixed(phase.page.timers / seconds, 2)}`,
  );
  console.log(
    `  CSS/Web animations running:        ${phase.animationsAtStart.length} at the start, ${phase.animations.length} at the end${phase.animations.length > 0 ? ` (${phase.animations.join('; ')})` : ''}`,
  );
  const server = percent(phase.server.cpuSeconds, seconds);
  console.log(
    `  server process:                    ${fixed(server, 2)} % of a core, ${fixed(phase.server.contextSwitches / seconds, 0)} wake-ups/s; SFU packets in ${fixed((phase.sfu.packetsIn ?? 0) / seconds, 0)}/s, forwarded ${fixed((phase.sfu.packetsOut ?? 0) / seconds, 0)}/s; HTTP requests ${fixed((phase.sfu.requests ?? 0) / seconds, 2)}/s`,
  );
  if (onlineListeners > 0)
    console.log(
      `  server per idle listener:          ${fixed(server / onlineListeners, 2)} % of a core, ${fixed(phase.server.contextSwitches / seconds / onlineListeners, 0)} wake-ups/s (${onlineListeners} ONLINE)`,
    );
}

function summary(phase: Phase, onlineListeners: number): string {
  const renderer = sum(
    [...phase.listener].filter(([pid]) => chromiumRole(pid) === 'renderer').map(([, u]) => u),
  );
  const all = sum(phase.listener.values());
  return (
    `renderer ${fixed(percent(renderer.cpuSeconds, phase.seconds))} % of a core, ` +
    `${fixed(renderer.contextSwitches / phase.seconds, 0)} wake-ups/s; ` +
    `whole browser ${fixed(percent(all.cpuSeconds, phase.seconds))} %, ${fixed(all.contextSwitches / phase.seconds, 0)} wake-ups/s; ` +
    `server ${fixed(percent(phase.server.cpuSeconds, phase.seconds) / Math.max(1, onlineListeners), 2)} % of a core per idle listener`
  );
}

const wav = join(dir, 'silence.wav');
silentWav(wav);
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The listener's own browser, so its process tree is the page's cost and nothing else's.
const listenerServer = await chromium.launchServer({
  executablePath,
  args: [...chromiumArgs, `--use-file-for-fake-audio-capture=${wav}`],
});
const listenerBrowser = await chromium.connect(listenerServer.wsEndpoint());
const othersBrowser = await chromium.launch({ executablePath, args: chromiumArgs });
try {
  const { url: baseURL, pid: serverPid, dataDir } = await startChirp();
  await claimServer(baseURL, dataDir, {
    name: 'Bench Owner',
    email: 'bench.owner@bench.test',
    password: PASSWORD,
  });
  const owner = await signedIn(othersBrowser, baseURL, 'Bench Owner');
  const talker = await signedIn(othersBrowser, baseURL, 'Idle Talker', installSwitchableVoice);
  const listener = await signedIn(listenerBrowser, baseURL, 'Idle Listener', {
    content: wakeUpCounters,
  });
  const headers = { origin: baseURL };
  const { id } = (await (
    await owner.request.post('/api/channels', { data: { name: 'Battery' }, headers })
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
  const rig: Rig = {
    listenerServer,
    listener,
    pages: [listener, talker],
    serverPid,
    baseURL,
  };
  console.log(
    `Idle listener: built-in SFU, Chromium --disable-gpu, ${MINUTES} min silent${DTX ? ', Opus DTX forced on by the bench' : ''} (server pid ${serverPid}, listener's browser pid ${listenerServer.process().pid})`,
  );

  await sleep(WARM_UP_S * 1000);
  const offline = await measure(rig, 'Signed in, channel open, OFFLINE', BASELINE_S);
  report(offline, 0);

  for (const page of [talker, listener]) {
    await page.getByRole('button', { name: /Tap to connect/ }).click();
    await page.getByText('Voice Ready', { exact: true }).waitFor({ timeout: 30_000 });
  }
  await sleep(WARM_UP_S * 1000);
  const silent = await measure(rig, 'ONLINE and silent (2 members ONLINE)', MINUTES * 60);
  report(silent, 2);
  for (const page of [listener, talker])
    if (!(await page.getByText('Voice Ready', { exact: true }).isVisible()))
      throw new Error('a member left the voice room during the silent phase (idle?)');
  await listener.screenshot({ path: join(shots, 'silent.png') });

  await talker.evaluate(() =>
    (window as unknown as { benchVoice: (on: boolean) => void }).benchVoice(true),
  );
  await listener
    .locator(`[data-testid="member-card"][data-audible]`)
    .filter({ hasText: 'Idle Talker' })
    .waitFor({ timeout: 15_000 });
  await sleep(1_000);
  await listener.screenshot({ path: join(shots, 'voice-heard.png') });
  const voice = await measure(rig, 'ONLINE while the other member talks', VOICE_S);
  report(voice, 2);
  await talker.evaluate(() =>
    (window as unknown as { benchVoice: (on: boolean) => void }).benchVoice(false),
  );

  console.log(`\nidle listener, OFFLINE:            ${summary(offline, 2)}`);
  console.log(`idle listener, ONLINE and silent:  ${summary(silent, 2)}`);
  console.log(`listener while a voice is heard:   ${summary(voice, 2)}`);
  console.log(`screenshots: ${join(shots, 'silent.png')}, ${join(shots, 'voice-heard.png')}`);
} finally {
  await listenerBrowser.close();
  await listenerServer.close();
  await othersBrowser.close();
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
