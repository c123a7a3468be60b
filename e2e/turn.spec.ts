import type { Browser, BrowserContext, Page } from '@playwright/test';
import { newPerson, type Person } from './support/accounts';
import { expect, test, signInAndOpen } from './support/fixtures';
import { startChirp, type ChirpProcess } from './support/turn/chirp-process';
import { startCoturn, type Coturn } from './support/turn/coturn';

/**
 * TURN for real: Debian's coturn with the shared-secret (TURN REST API) set-up of
 * deploy/coturn/turnserver.conf, a Chirp server of its own with TURN_SECRET / TURN_URLS, and
 * browsers that may only use relay candidates (`iceTransportPolicy: 'relay'`, as on a network that
 * lets nothing through but the TURN server). Audio must arrive for a one-to-one call and for a
 * channel's voice through the built-in SFU.
 */

const AUDIBLE = 0.05;

/**
 * Test-side instruments, before the app loads: every peer connection is forced to relay-only ICE
 * and remembered (for getStats), and the microphone is a steady 440 Hz tone.
 */
function instrument(): void {
  const w = window as unknown as { __peers: RTCPeerConnection[] };
  w.__peers = [];
  const Original = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends Original {
    constructor(config?: RTCConfiguration) {
      super({ ...config, iceTransportPolicy: 'relay' });
      w.__peers.push(this);
    }
  };
  navigator.mediaDevices.getUserMedia = (constraints?: MediaStreamConstraints) => {
    if (!constraints?.audio) return Promise.reject(new DOMException('No audio', 'NotFoundError'));
    const context = new AudioContext();
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    gain.gain.value = 0.5;
    oscillator.frequency.value = 440;
    const destination = context.createMediaStreamDestination();
    oscillator.connect(gain).connect(destination);
    oscillator.start();
    return Promise.resolve(destination.stream);
  };
}

interface Party {
  person: Person;
  context: BrowserContext;
  page: Page;
}

async function open(browser: Browser, baseURL: string, person: Person): Promise<Party> {
  const context = await browser.newContext({ baseURL, permissions: ['microphone'] });
  await context.addInitScript(instrument);
  const page = await context.newPage();
  await signInAndOpen(page, person);
  return { person, context, page };
}

const userIdOf = async (page: Page) =>
  ((await (await page.request.get('/api/auth/user')).json()) as { id: string }).id;

/**
 * The candidate types of the connected pair of the page's newest peer connection that carries
 * audio in, and how many audio packets came in on it.
 */
function selectedPair(
  page: Page,
): Promise<{ local: string; remote: string; packets: number } | null> {
  return page.evaluate(async () => {
    const peers = (window as unknown as { __peers: RTCPeerConnection[] }).__peers;
    for (const pc of [...peers].reverse()) {
      const stats = await pc.getStats();
      let pairId: string | undefined;
      let packets = 0;
      stats.forEach(
        (report: {
          type: string;
          kind?: string;
          selectedCandidatePairId?: string;
          packetsReceived?: number;
        }) => {
          if (report.type === 'transport' && report.selectedCandidatePairId)
            pairId = report.selectedCandidatePairId;
          if (report.type === 'inbound-rtp' && report.kind === 'audio')
            packets += report.packetsReceived ?? 0;
        },
      );
      if (!pairId || packets === 0) continue;
      const pair = stats.get(pairId) as { localCandidateId: string; remoteCandidateId: string };
      const local = stats.get(pair.localCandidateId) as { candidateType: string };
      const remote = stats.get(pair.remoteCandidateId) as { candidateType: string };
      return { local: local.candidateType, remote: remote.candidateType, packets };
    }
    return null;
  });
}

/** The loudest RMS level over a second of the audio elements matching `selector`. */
function loudest(page: Page, selector: string): Promise<number> {
  return page.evaluate(async (css) => {
    const context = new AudioContext();
    await context.resume();
    const analysers: AnalyserNode[] = [];
    for (const element of document.querySelectorAll<HTMLAudioElement>(css)) {
      if (!(element.srcObject instanceof MediaStream)) continue;
      const analyser = context.createAnalyser();
      analyser.fftSize = 2048;
      context.createMediaStreamSource(element.srcObject).connect(analyser);
      analysers.push(analyser);
    }
    let level = 0;
    const samples = new Float32Array(2048);
    for (let i = 0; i < 20; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (const analyser of analysers) {
        analyser.getFloatTimeDomainData(samples);
        level = Math.max(
          level,
          Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / samples.length),
        );
      }
    }
    await context.close();
    return level;
  }, selector);
}

test.describe.serial('TURN relay with coturn', () => {
  let coturn: Coturn;
  let chirp: ChirpProcess;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    coturn = await startCoturn();
    chirp = await startChirp({
      TURN_SECRET: coturn.secret,
      TURN_URLS: `turn:127.0.0.1:${coturn.port}?transport=udp`,
      TURN_TTL: '600',
    });
  });
  test.afterAll(async () => {
    await chirp?.stop();
    await coturn?.stop();
  });

  test('a one-to-one call with relay-only ICE carries audio through coturn', async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const a = await open(browser, chirp.baseURL, newPerson('Ria', 'Relay'));
    const b = await open(browser, chirp.baseURL, newPerson('Rob', 'Relay'));
    const aId = await userIdOf(a.page);

    const callButton = a.page.getByRole('button', { name: `Call ${b.person.name}` });
    await expect(async () => {
      if (!(await callButton.isVisible()))
        await a.page.getByRole('button', { name: 'Contacts' }).click();
      await callButton.click({ timeout: 3000 });
      await expect(a.page.getByTestId('active-call')).toBeVisible({ timeout: 1500 });
    }).toPass({ timeout: 20_000 });
    await b.page.getByRole('button', { name: 'Accept call' }).click();
    for (const party of [a, b]) {
      await expect(party.page.getByText('Connected', { exact: true })).toBeVisible({
        timeout: 30_000,
      });
    }

    for (const party of [a, b]) {
      await expect
        .poll(() => selectedPair(party.page), { timeout: 20_000 })
        .toMatchObject({ local: 'relay' });
    }
    await expect
      .poll(() => loudest(b.page, 'audio[data-call-remote-audio]'), { timeout: 15_000 })
      .toBeGreaterThan(AUDIBLE);
    // coturn allocated for the credential Chirp gave A: "<expiry>:<A's user id>".
    expect(coturn.log()).toMatch(new RegExp(`user <\\d+:${aId}>.*ALLOCATE processed, success`));
    await a.context.close();
    await b.context.close();
  });

  test("a channel's voice through the built-in SFU reaches a relay-only listener", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const owner = newPerson('Oda', 'Relay');
    const a = await open(browser, chirp.baseURL, owner);
    const b = await open(browser, chirp.baseURL, newPerson('Bo', 'Relay'));
    const bId = await userIdOf(b.page);

    // Only admins create channels: the operator makes A superadmin with the admin command, which
    // needs the embedded database to itself for a moment.
    await chirp.stop();
    chirp.admin('grant-superadmin', owner.email);
    await chirp.restart();

    const headers = { origin: chirp.baseURL };
    const created = await a.page.request.post('/api/channels', {
      data: { name: 'Relayed voice' },
      headers,
    });
    expect(created.ok()).toBe(true);
    const { id } = (await created.json()) as { id: number };
    expect(
      (
        await a.page.request.post(`/api/channels/${id}/members`, { data: { userId: bId }, headers })
      ).ok(),
    ).toBe(true);

    await b.page.reload();
    await b.page.getByRole('button', { name: /Tap to connect/ }).click();
    await a.page.goto(`/?channel=${id}`);
    await a.page.getByRole('button', { name: /Tap to connect/ }).click();
    for (const party of [a, b]) {
      await expect(party.page.getByText('Voice Ready', { exact: true })).toBeVisible({
        timeout: 45_000,
      });
    }

    const aId = await userIdOf(a.page);
    await expect
      .poll(() => loudest(b.page, `#remote-audio audio[data-user-id="${aId}"]`), {
        timeout: 30_000,
      })
      .toBeGreaterThan(AUDIBLE);
    expect(await selectedPair(b.page)).toMatchObject({ local: 'relay' });
    await expect
      .poll(() => selectedPair(a.page), { timeout: 10_000 })
      .toMatchObject({ local: 'relay' });
    expect(coturn.log()).toMatch(new RegExp(`user <\\d+:${bId}>.*ALLOCATE processed, success`));
    await a.context.close();
    await b.context.close();
  });
});
