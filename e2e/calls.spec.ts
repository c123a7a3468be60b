import { randomBytes } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { newPerson, type Person } from './support/accounts';
import { seriousViolations } from './support/axe';
import { expect, test, signInAndOpen } from './support/fixtures';
import { placeCall as placeCallFromContacts } from './support/place-call';
import { open as openWithMicrophone } from './support/voice-audio';

/**
 * One-to-one calls between two real browsers with fake microphones. Placed from the
 * Contacts dropdown's call buttons, answered on the incoming-call screen, audio checked both ways.
 */

interface Party {
  person: Person;
  page: Page;
  close(): Promise<void>;
}

/** Unique display names: the Contacts list shows every user, and parallel tests add many. */
const someone = (first: string) => newPerson(first, `Q${randomBytes(3).toString('hex')}`);

/**
 * Test-side instruments, injected before the app loads: the peer connections the page creates (for
 * getStats) and the frequencies of the tones it plays. The app itself exposes nothing for tests.
 */
function instrument() {
  const w = window as unknown as { __peers: RTCPeerConnection[]; __tones: number[] };
  w.__peers = [];
  w.__tones = [];
  const Original = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends Original {
    constructor(config?: RTCConfiguration) {
      super(config);
      w.__peers.push(this);
    }
  };
  const start = Reflect.get<OscillatorNode, 'start'>(OscillatorNode.prototype, 'start');
  OscillatorNode.prototype.start = function (this: OscillatorNode, when?: number) {
    w.__tones.push(this.frequency.value);
    start.call(this, when);
  };
}

async function open(browser: Browser, person: Person): Promise<Party> {
  const context = await browser.newContext();
  await context.addInitScript(instrument);
  const page = await context.newPage();
  const socket = page.waitForEvent('websocket', { predicate: (ws) => /\/ws\?/.test(ws.url()) });
  await signInAndOpen(page, person);
  await socket;
  // The socket exists; give it a moment to open so the first ring is not sent to nobody.
  await page.waitForTimeout(500);
  return { person, page, close: () => context.close() };
}

const placeCall = (caller: Party, callee: Party): Promise<void> =>
  placeCallFromContacts(caller.page, callee.person.name);

async function userId(party: Party): Promise<string> {
  return ((await (await party.page.request.get('/api/auth/user')).json()) as { id: string }).id;
}

/** Inbound audio packets of the page's latest peer connection. */
async function packetsReceived(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const peers = (window as unknown as { __peers: RTCPeerConnection[] }).__peers;
    const pc = peers.at(-1);
    if (!pc) return 0;
    let packets = 0;
    (await pc.getStats()).forEach(
      (report: { type: string; kind?: string; packetsReceived?: number }) => {
        if (report.type === 'inbound-rtp' && report.kind === 'audio')
          packets += report.packetsReceived ?? 0;
      },
    );
    return packets;
  });
}

/** The loudest RMS level of the remote call audio over a short window, through an AnalyserNode. */
async function remoteLevel(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const audio = document.querySelector<HTMLAudioElement>('audio[data-call-remote-audio]');
    const stream = audio?.srcObject;
    if (!(stream instanceof MediaStream)) return -1;
    const context = new AudioContext();
    await context.resume();
    const analyser = context.createAnalyser();
    analyser.fftSize = 2048;
    context.createMediaStreamSource(stream).connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    let loudest = 0;
    for (let i = 0; i < 40; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      analyser.getFloatTimeDomainData(samples);
      const rms = Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / samples.length);
      loudest = Math.max(loudest, rms);
    }
    await context.close();
    return loudest;
  });
}

const tones = (page: Page) =>
  page.evaluate(() => (window as unknown as { __tones: number[] }).__tones.slice());
/** The hangup tone's falling steps (client/src/features/calls/tones.ts). */
const HANGUP = [480, 360, 240];
const playedHangup = (list: number[]) => list.join(',').includes(HANGUP.join(','));

test('A calls B: ring, accept, audio both ways, minimize and restore, B ends', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const b = await open(browser, someone('Bea'));
  const a = await open(browser, someone('Ann'));
  await placeCall(a, b);
  // One state at a time: ringing says "Calling…" only; the voice's status comes once answered.
  await expect(a.page.getByText('Calling…')).toBeVisible();
  await expect(a.page.getByText('Connecting voice...')).toBeHidden();

  const incoming = b.page.getByTestId('incoming-call');
  await expect(incoming.getByText('Incoming call...')).toBeVisible();
  await expect(incoming.getByText(a.person.name)).toBeVisible();
  await expect(b.page.getByTestId('call-initials')).toHaveText(
    `A${a.person.name.split(' ')[1]![0]}`,
  );
  await expect(b.page.getByRole('button', { name: 'Accept call' })).toBeFocused();
  await expect.poll(() => tones(b.page)).toContain(880);
  expect(await seriousViolations(b.page)).toEqual([]); // the incoming-call screen
  await b.page.getByRole('button', { name: 'Accept call' }).click();

  for (const party of [a, b]) {
    await expect(party.page.getByText('Connected', { exact: true })).toBeVisible({
      timeout: 20_000,
    });
    const timer = party.page.getByTestId('call-timer');
    await expect(timer).toHaveText(/^\d+:\d\d$/);
    const first = await timer.textContent();
    await expect(timer).not.toHaveText(first!, { timeout: 3000 });
  }
  await expect(a.page.getByTestId('active-call').getByText(b.person.name)).toBeVisible();
  expect(await seriousViolations(a.page)).toEqual([]); // the active-call screen

  for (const party of [a, b]) {
    const before = await packetsReceived(party.page);
    await expect
      .poll(() => packetsReceived(party.page), { timeout: 10_000 })
      .toBeGreaterThan(before + 20);
    expect(await remoteLevel(party.page)).toBeGreaterThan(0.001);
    // The user's own microphone is never played back: the only audio element is the remote one.
    expect(await party.page.locator('audio').count()).toBe(1);
  }

  // Mute disables A's microphone track: B hears silence until A unmutes.
  const mute = a.page.getByRole('button', { name: 'Mute' });
  await mute.click();
  await expect(mute).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => remoteLevel(b.page), { timeout: 10_000 }).toBeLessThan(0.0005);
  await mute.click();
  await expect(mute).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(() => remoteLevel(b.page), { timeout: 10_000 }).toBeGreaterThan(0.001);

  await a.page.getByRole('button', { name: 'Minimize call' }).click();
  await expect(a.page.getByTestId('active-call')).toBeHidden();
  const pill = a.page.getByTestId('minimized-call');
  await expect(pill.getByText('On call')).toBeVisible();
  await expect(pill.getByText(b.person.name)).toBeVisible();
  // The call's running time goes on in the pill.
  const pillTimer = pill.getByTestId('call-timer');
  await expect(pillTimer).toHaveText(/^\d+:\d\d$/);
  const shown = await pillTimer.textContent();
  await expect(pillTimer).not.toHaveText(shown!, { timeout: 3000 });
  await pill.getByRole('button', { name: `Restore call with ${b.person.name}` }).click();
  await expect(a.page.getByTestId('active-call')).toBeVisible();
  await a.page.keyboard.press('Escape');
  await expect(pill).toBeVisible();
  await pill.getByRole('button', { name: `Restore call with ${b.person.name}` }).click();

  await b.page.getByRole('button', { name: 'End call' }).click();
  for (const party of [a, b]) {
    await expect(party.page.getByTestId('active-call')).toBeHidden();
    await expect(party.page.getByTestId('minimized-call')).toBeHidden();
    await expect.poll(async () => playedHangup(await tones(party.page))).toBe(true);
    await expect(party.page.locator('audio[data-call-remote-audio]')).toHaveCount(0);
  }
  await expect(a.page.getByText('Call ended', { exact: true })).toBeVisible();

  const history = (await (await a.page.request.get('/api/calls')).json()) as {
    outcome: string;
    contactName: string;
  }[];
  expect(history[0]).toMatchObject({ outcome: 'answered', contactName: b.person.name });
  await a.close();
  await b.close();
});

test('B declines: A is told and the call screens close', async ({ browser }) => {
  const b = await open(browser, someone('Bea'));
  const a = await open(browser, someone('Ann'));
  await placeCall(a, b);
  await b.page.getByRole('button', { name: 'Decline call' }).click();
  await expect(b.page.getByTestId('incoming-call')).toBeHidden();
  await expect(a.page.getByText('Call declined', { exact: true })).toBeVisible();
  await expect(a.page.getByTestId('active-call')).toBeHidden();
  await a.close();
  await b.close();
});

test('A hangs up while B is still ringing: the ringing stops, and B sees a missed call', async ({
  browser,
}) => {
  const b = await open(browser, someone('Bea'));
  const a = await open(browser, someone('Ann'));
  await placeCall(a, b);
  await expect(b.page.getByText('Incoming call...')).toBeVisible();
  await a.page.getByRole('button', { name: 'End call' }).click();
  await expect(a.page.getByTestId('active-call')).toBeHidden();
  await expect(b.page.getByTestId('incoming-call')).toBeHidden();
  await expect(b.page.getByText('Missed call', { exact: true })).toBeVisible();

  // The count on Contacts says so until B opens the list, where Ann's row is marked.
  const contacts = b.page.getByRole('button', { name: 'Contacts, 1 missed call' });
  await expect(contacts).toBeVisible();
  await expect(contacts).toContainText('1');
  await contacts.click();
  const annRow = b.page
    .getByRole('dialog', { name: 'Contacts' })
    .getByRole('listitem')
    .filter({ hasText: a.person.name });
  await expect(annRow.getByText('Missed call')).toBeVisible();
  await b.page.keyboard.press('Escape');
  await expect(b.page.getByRole('button', { name: 'Contacts', exact: true })).toBeVisible();

  // In B's history it is a missed call; in A's, one A cancelled.
  const history = async (party: Party) =>
    ((await (await party.page.request.get('/api/calls')).json()) as { outcome: string }[])[0];
  expect(await history(b)).toMatchObject({ outcome: 'missed' });
  expect(await history(a)).toMatchObject({ outcome: 'cancelled' });
  await a.close();
  await b.close();
});

test('a receiver who blocked the caller never rings; the caller is told they are not available', async ({
  browser,
}) => {
  const b = await open(browser, someone('Bea'));
  const a = await open(browser, someone('Ann'));
  const blocked = await b.page.request.post(`/api/users/${await userId(a)}/block`, {
    headers: { origin: new URL(b.page.url()).origin },
  });
  expect(blocked.status()).toBe(200);
  await a.page.getByRole('button', { name: 'Contacts' }).click();
  await a.page.getByRole('button', { name: `Call ${b.person.name}` }).click();
  await expect(a.page.getByText('User is not available', { exact: true })).toBeVisible();
  await expect(a.page.getByTestId('active-call')).toBeHidden();
  await expect(b.page.getByTestId('incoming-call')).toBeHidden();
  await a.close();
  await b.close();
});

test('a receiver already in a call is busy', async ({ browser }) => {
  const b = await open(browser, someone('Bea'));
  const a = await open(browser, someone('Ann'));
  const c = await open(browser, someone('Cem'));
  await placeCall(a, b);
  await b.page.getByRole('button', { name: 'Accept call' }).click();
  await expect(b.page.getByTestId('active-call')).toBeVisible();

  await c.page.getByRole('button', { name: 'Contacts' }).click();
  await c.page.getByRole('button', { name: `Call ${b.person.name}` }).click();
  await expect(c.page.getByText('User is busy', { exact: true })).toBeVisible();
  await expect(c.page.getByTestId('active-call')).toBeHidden();
  await expect(b.page.getByTestId('incoming-call')).toBeHidden();
  await a.page.getByRole('button', { name: 'End call' }).click();
  await expect(b.page.getByTestId('active-call')).toBeHidden();
  for (const party of [a, b, c]) await party.close();
});

test('both devices of the receiver ring; accepting on one stops the other', async ({ browser }) => {
  const bea = someone('Bea');
  const phone = await open(browser, bea);
  const laptop = await open(browser, bea);
  const a = await open(browser, someone('Ann'));
  await placeCall(a, phone);
  await expect(phone.page.getByText('Incoming call...')).toBeVisible();
  await expect(laptop.page.getByText('Incoming call...')).toBeVisible();
  await phone.page.getByRole('button', { name: 'Accept call' }).click();
  await expect(laptop.page.getByTestId('incoming-call')).toBeHidden();
  await expect(laptop.page.getByTestId('active-call')).toBeHidden();
  await expect(phone.page.getByTestId('active-call')).toBeVisible();
  for (const party of [a, phone])
    await expect(party.page.getByText('Connected', { exact: true })).toBeVisible({
      timeout: 20_000,
    });
  await a.page.getByRole('button', { name: 'End call' }).click();
  await expect(phone.page.getByTestId('active-call')).toBeHidden();
  for (const party of [a, phone, laptop]) await party.close();
});

test('nobody answers for 30 s: the caller hears "No answer", the receiver sees a missed call', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const b = await open(browser, someone('Bea'));
  const a = await open(browser, someone('Ann'));
  await placeCall(a, b);
  await expect(b.page.getByText('Incoming call...')).toBeVisible();
  await expect(a.page.getByText('No answer', { exact: true })).toBeVisible({ timeout: 45_000 });
  await expect(a.page.getByTestId('active-call')).toBeHidden();
  await expect(b.page.getByTestId('incoming-call')).toBeHidden();
  await expect(b.page.getByText('Missed call', { exact: true })).toBeVisible();
  const history = (await (await b.page.request.get('/api/calls')).json()) as {
    outcome: string;
    direction: string;
  }[];
  expect(history[0]).toMatchObject({ outcome: 'missed', direction: 'incoming' });
  // Contacts marks who called while B was away.
  await b.page.getByRole('button', { name: 'Contacts' }).click();
  const annRow = b.page
    .getByRole('dialog', { name: 'Contacts' })
    .getByRole('listitem')
    .filter({ hasText: a.person.name });
  await expect(annRow.getByText('Missed call')).toBeVisible();
  await a.close();
  await b.close();
});

// What a user hit before, seen in the browser.
test('a call with no microphone says it is missing, not denied', async ({ browser, baseURL }) => {
  const caller = await openWithMicrophone(browser, newPerson('Cora', `M${Date.now()}`), 'tone');
  const callee = await openWithMicrophone(browser, newPerson('Milo', `M${Date.now()}`), 'missing');
  void baseURL;
  const call = caller.page.getByRole('button', { name: `Call ${callee.person.name}` });
  // Placing a call needs the caller's socket open (spec §5); try until the callee rings.
  await expect(async () => {
    if (!(await call.isVisible()))
      await caller.page.getByRole('button', { name: 'Contacts' }).click();
    await call.click({ timeout: 3000 });
    await expect(callee.page.getByTestId('incoming-call')).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await callee.page.getByRole('button', { name: 'Accept call' }).click();
  await expect(
    callee.page.getByText('No microphone found - please connect a microphone and try again', {
      exact: true,
    }),
  ).toBeVisible();
  await expect(callee.page.getByText('Microphone access denied', { exact: false })).toHaveCount(0);
  await caller.context.close();
  await callee.context.close();
});
