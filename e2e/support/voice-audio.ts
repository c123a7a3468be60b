import type { Browser, Page } from '@playwright/test';
import { OWNER, type Person } from './accounts';
import { expect, type SignedInUser, signInAndOpen } from './fixtures';

/**
 * Voice in the browser, shared by the voice suites (built-in SFU and LiveKit alike): people with a
 * steady tone as microphone, a channel made by the owner, and the level each listener receives.
 */

/** RMS levels of a received stream: below SILENT is silence, above AUDIBLE is A's tone. */
export const SILENT = 0.01;
export const AUDIBLE = 0.05;
/**
 * How soon an admin mute, a removal or a deletion must cut a voice in these tests. The product's
 * goal is 1 s (printed by each test, and by `npm run bench livekit`); on a two-core machine running
 * browsers beside the servers the same path took up to 1.4 s. The bound proves the cut is immediate
 * rather than left to the 10-minute voice token, without timing a loaded machine.
 */
export const CUT_AT_ONCE_MS = 3_000;

export const FREE_TIER_LIMIT = 'Free tier limit exceeded - cannot connect';
export const MICROPHONE_DENIED = 'Microphone access denied - please allow microphone permissions';
export const MICROPHONE_MISSING = 'No microphone found - please connect a microphone and try again';

/**
 * 'silent': a working microphone that hears nothing (an open microphone in a quiet room).
 * 'voice': the tone as speech comes, after a second of silence and in bursts with short pauses, so
 * the voice servers' level detectors (which learn each microphone's quiet floor) hear it speak.
 */
export type Microphone = 'tone' | 'voice' | 'silent' | 'denied' | 'missing';

/**
 * Chromium's fake microphone beeps briefly once a second, too sparse to sample reliably; a steady
 * 440 Hz tone stands in for a voice instead. 'denied' refuses capture as a blocked permission does.
 */
export function installMicrophone(kind: Microphone): void {
  const devices = navigator.mediaDevices;
  devices.getUserMedia = (constraints?: MediaStreamConstraints) => {
    if (!constraints?.audio) return Promise.reject(new DOMException('No audio', 'NotFoundError'));
    if (kind === 'denied')
      return Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    if (kind === 'missing')
      return Promise.reject(new DOMException('Requested device not found', 'NotFoundError'));
    const context = new AudioContext();
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    gain.gain.value = kind === 'silent' || kind === 'voice' ? 0 : 0.5;
    if (kind === 'voice') {
      // Two minutes of 800 ms bursts and 200 ms pauses, after one silent second.
      for (let second = 1; second < 120; second++) {
        gain.gain.setValueAtTime(0.5, context.currentTime + second);
        gain.gain.setValueAtTime(0, context.currentTime + second + 0.8);
      }
    }
    oscillator.frequency.value = 440;
    const destination = context.createMediaStreamDestination();
    oscillator.connect(gain).connect(destination);
    oscillator.start();
    return Promise.resolve(destination.stream);
  };
}

/** `baseURL`: another server than the shared one (a test's own process). */
export async function open(
  browser: Browser,
  person: Person,
  microphone: Microphone,
  baseURL?: string,
): Promise<SignedInUser> {
  const context = await browser.newContext({
    permissions: microphone === 'denied' || microphone === 'missing' ? [] : ['microphone'],
    ...(baseURL ? { baseURL } : {}),
  });
  await context.addInitScript(installMicrophone, microphone);
  const page = await context.newPage();
  await signInAndOpen(page, person);
  return { person, context, page };
}

export async function userId(page: Page): Promise<string> {
  const me = (await (await page.request.get('/api/auth/user')).json()) as { id: string };
  return me.id;
}

/** The owner (superadmin) makes a channel with the given people in it, through the API. */
export async function channelWith(
  browser: Browser,
  baseURL: string,
  members: SignedInUser[],
): Promise<number> {
  const { id, owner } = await channelWithAdmin(browser, baseURL, members);
  await owner.context.close();
  return id;
}

/** As `channelWith`, keeping the owner (the channel's admin) signed in for admin actions. */
export async function channelWithAdmin(
  browser: Browser,
  baseURL: string,
  members: SignedInUser[],
): Promise<{ id: number; owner: SignedInUser }> {
  const owner = await open(browser, OWNER, 'tone', baseURL);
  const headers = { origin: baseURL };
  const created = await owner.page.request.post('/api/channels', {
    data: { name: `Voice ${Date.now()}` },
    headers,
  });
  expect(created.ok()).toBe(true);
  const { id } = (await created.json()) as { id: number };
  for (const member of members) {
    const added = await owner.page.request.post(`/api/channels/${id}/members`, {
      data: { userId: await userId(member.page) },
      headers,
    });
    expect(added.ok()).toBe(true);
  }
  // Free users land in their only channel once the page loads again.
  for (const member of members) {
    await member.page.reload();
    await expect(member.page.getByRole('button', { name: /Tap to connect/ })).toBeEnabled();
  }
  return { id, owner };
}

export const goOnline = (page: Page) =>
  page.getByRole('button', { name: /Tap to connect/ }).click();
export const goOffline = (page: Page) =>
  page.getByRole('button', { name: /Tap to disconnect/ }).click();

/** The loudest RMS level heard from `fromUserId` on `page`'s remote audio, over a few samples. */
export function levelFrom(page: Page, fromUserId: string, samples = 6): Promise<number> {
  return page.evaluate(
    async ([from, count]) => {
      type Probe = { context: AudioContext; analysers: WeakMap<HTMLAudioElement, AnalyserNode> };
      const holder = window as unknown as { voiceProbe?: Probe };
      holder.voiceProbe ??= { context: new AudioContext(), analysers: new WeakMap() };
      const probe = holder.voiceProbe;
      const analyserOf = (element: HTMLAudioElement): AnalyserNode | undefined => {
        if (!(element.srcObject instanceof MediaStream)) return undefined;
        let analyser = probe.analysers.get(element);
        if (!analyser) {
          analyser = probe.context.createAnalyser();
          analyser.fftSize = 2048;
          probe.context.createMediaStreamSource(element.srcObject).connect(analyser);
          probe.analysers.set(element, analyser);
        }
        return analyser;
      };
      let level = 0;
      for (let i = 0; i < count; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 50));
        const elements = document.querySelectorAll<HTMLAudioElement>(
          `#remote-audio audio[data-user-id="${from}"]`,
        );
        for (const element of elements) {
          const analyser = analyserOf(element);
          if (!analyser) continue;
          const samples = new Float32Array(analyser.fftSize);
          analyser.getFloatTimeDomainData(samples);
          const rms = Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / samples.length);
          level = Math.max(level, rms);
        }
      }
      return level;
    },
    [fromUserId, samples] as const,
  );
}

/** What the in-page level watcher has noted (wall-clock ms), on `window.levelWatch`. */
interface LevelWatch {
  /** First read at AUDIBLE or more. */
  heardAt?: number;
  /** Start of the first quiet (below SILENT) that lasted 300 ms after being heard. */
  silentAt?: number;
}

/**
 * Starts a watcher in `listener`'s page that reads the level of `fromUserId`'s streams every 10 ms
 * in the page itself, so its figures hold no test-runner round trips, and notes on
 * `window.levelWatch` when they are first heard and when, after that, nothing more is heard (the
 * level below SILENT, or the elements gone, for 300 ms: a loaded machine can drop a few packets while
 * the tone plays; dated from its first quiet read). A new watch replaces the last.
 */
async function startLevelWatch(listener: Page, fromUserId: string): Promise<void> {
  await listener.evaluate(
    ([from, silent, audible]) => {
      const holder = window as unknown as {
        levelWatch?: LevelWatch;
        levelWatchStop?: () => void;
        levelContext?: AudioContext;
      };
      holder.levelWatchStop?.();
      const watch: LevelWatch = {};
      holder.levelWatch = watch;
      const context = (holder.levelContext ??= new AudioContext());
      const analysers = new Map<MediaStream, AnalyserNode>();
      let quietSince: number | undefined;
      const timer = setInterval(() => {
        let level = 0;
        for (const element of document.querySelectorAll<HTMLAudioElement>(
          `#remote-audio audio[data-user-id="${from}"]`,
        )) {
          if (!(element.srcObject instanceof MediaStream)) continue;
          let analyser = analysers.get(element.srcObject);
          if (!analyser) {
            // A short window, so the first loud 10 ms count; a fresh analyser has nothing to say yet.
            analyser = context.createAnalyser();
            analyser.fftSize = 512;
            context.createMediaStreamSource(element.srcObject).connect(analyser);
            analysers.set(element.srcObject, analyser);
            return;
          }
          const samples = new Float32Array(analyser.fftSize);
          analyser.getFloatTimeDomainData(samples);
          level = Math.max(
            level,
            Math.sqrt(samples.reduce((sum, v) => sum + v * v, 0) / samples.length),
          );
        }
        if (level >= audible) {
          watch.heardAt ??= Date.now();
          quietSince = undefined;
        } else if (watch.heardAt !== undefined && level < silent) {
          quietSince ??= Date.now();
          if (Date.now() - quietSince >= 300) {
            watch.silentAt = quietSince;
            clearInterval(timer);
          }
        }
      }, 10);
      holder.levelWatchStop = () => clearInterval(timer);
      setTimeout(() => clearInterval(timer), 60_000);
    },
    [fromUserId, SILENT, AUDIBLE] as const,
  );
}

/** Waits up to `timeoutMs` for the watcher to note `what`; answers it, or undefined. */
async function noted(
  listener: Page,
  what: keyof LevelWatch,
  timeoutMs: number,
): Promise<number | undefined> {
  const handle = await listener
    .waitForFunction(
      (key) => (window as unknown as { levelWatch?: LevelWatch }).levelWatch?.[key],
      what,
      { timeout: timeoutMs, polling: 50 },
    )
    .catch(() => undefined);
  return handle ? ((await handle.jsonValue())) : undefined;
}

/**
 * Call it before A speaks: the returned function waits (up to `timeoutMs`) for the moment
 * `listener`'s page first hears `fromUserId`, timed in the page itself, and answers it (wall-clock
 * ms), or undefined when A was never heard.
 */
export async function watchHeard(
  listener: Page,
  fromUserId: string,
): Promise<(timeoutMs?: number) => Promise<number | undefined>> {
  await startLevelWatch(listener, fromUserId);
  return (timeoutMs = 15_000) => noted(listener, 'heardAt', timeoutMs);
}

/**
 * Call it while A is heard: it returns once the page's watcher hears A too (only then can silence
 * mean anything: returning earlier let an action that removes the element at once, a removal,
 * leave it never armed), with a function that waits for the moment nothing more is heard and
 * answers how many ms after `since` it came (infinity after 5 s).
 */
export async function watchSilence(
  listener: Page,
  fromUserId: string,
): Promise<(since: number) => Promise<number>> {
  await startLevelWatch(listener, fromUserId);
  if ((await noted(listener, 'heardAt', 10_000)) === undefined)
    throw new Error(`the listener's page does not hear ${fromUserId}`);
  return async (since) => {
    const at = await noted(listener, 'silentAt', 5_000);
    return at === undefined ? Number.POSITIVE_INFINITY : at - since;
  };
}

export const voiceReady = (page: Page) => page.getByText('Voice Ready', { exact: true });

/** The walkie-talkie floor's status line under the talk button. */
export const floorStatus = (page: Page) => page.getByTestId('floor-status').getByRole('status');

/**
 * Holds Space to talk `times` times, 1.5 s each, as a person would: live while held, back to
 * "Hold to talk" after, and the short pause a person's next hold waits for (decision 023).
 */
export async function holdToTalkTimes(page: Page, times: number): Promise<void> {
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  for (let i = 0; i < times; i++) {
    await page.keyboard.down('Space');
    await expect(floorStatus(page)).toHaveText('You are live');
    await page.waitForTimeout(1_500);
    await page.keyboard.up('Space');
    await expect(floorStatus(page)).toHaveText('Hold to talk — one at a time');
    await page.waitForTimeout(1_200);
  }
}
