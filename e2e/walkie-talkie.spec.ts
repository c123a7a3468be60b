import type { Page } from '@playwright/test';
import { newPerson } from './support/accounts';
import { seriousViolations } from './support/axe';
import { expect, test, type SignedInUser } from './support/fixtures';
import { BUSY_TONE, TALK_PERMIT_TONE, TONE_GAIN } from '../client/src/features/voice/tones';
import { installOutputProbe, watchOutput, type Heard, type ToneWindow } from './support/output-probe';
import {
  AUDIBLE,
  SILENT,
  channelWithAdmin,
  goOnline,
  levelFrom,
  open,
  userId,
  voiceReady,
} from './support/voice-audio';

/**
 * Floor control in Chromium with real audio, on the built-in SFU and on LiveKit (the
 * `livekit` project runs the tests tagged @livekit): a channel admin makes a
 * channel walkie-talkie in the UI; two members press at once and only one gets the floor (the other
 * hears the busy tone, sees who is talking and is not forwarded, even when their page forces its
 * microphone on); an admin's press cuts in. Prints press → permit tone → heard.
 */
test.describe.configure({ timeout: 150_000 });

/** A tone's amplitude at the listener's output: played at TONE_GAIN (0.15), absent is near 0. */
const TONE_HEARD = TONE_GAIN / 3;
const TONE_ABSENT = TONE_GAIN / 10;
/** Each tone listened for over its steady part: the permit's first note, the busy tone's 0.3 s. */
const PERMIT: ToneWindow = {
  hz: TALK_PERMIT_TONE.frequencies[0],
  seconds: TALK_PERMIT_TONE.seconds / 2,
};
const BUSY: ToneWindow = { hz: BUSY_TONE.frequencies[0], seconds: 0.25 };

/**
 * Keeps every microphone track the page ever got, so the test can play a hostile client that turns
 * its microphone on without the floor (the app itself only enables it once the floor is granted).
 */
function keepMicrophoneTracks(): void {
  const devices = navigator.mediaDevices;
  const getUserMedia = devices.getUserMedia.bind(devices);
  const tracks: MediaStreamTrack[] = [];
  (window as unknown as { microphoneTracks: MediaStreamTrack[] }).microphoneTracks = tracks;
  devices.getUserMedia = async (constraints?: MediaStreamConstraints) => {
    const stream = await getUserMedia(constraints);
    tracks.push(...stream.getAudioTracks());
    return stream;
  };
}

/** The hostile part: the page keeps its microphone tracks enabled whatever the app says. */
const forceMicrophoneOn = (page: Page) =>
  page.evaluate(() => {
    const { microphoneTracks } = window as unknown as { microphoneTracks: MediaStreamTrack[] };
    setInterval(() => {
      for (const track of microphoneTracks) track.enabled = true;
    }, 10);
  });

const floorStatus = (page: Page) => page.getByTestId('floor-status').getByRole('status');

async function press(page: Page): Promise<void> {
  await page.keyboard.down('Space');
}
async function release(page: Page): Promise<void> {
  await page.keyboard.up('Space');
}

test('walkie-talkie: one talker at a time, the busy tone for the other, an admin cuts in @livekit', async ({
  browser,
  baseURL,
}, testInfo) => {
  const people: SignedInUser[] = [];
  for (const name of ['Ava', 'Ben', 'Cleo']) {
    const person = await open(browser, newPerson(name), 'tone');
    await person.context.addInitScript(installOutputProbe);
    await person.context.addInitScript(keepMicrophoneTracks);
    people.push(person);
  }
  const [a, b, c] = people as [SignedInUser, SignedInUser, SignedInUser];
  // channelWithAdmin reloads the members' pages, so the scripts above are in place.
  const { id, owner } = await channelWithAdmin(browser, baseURL!, [a, b, c]);
  const ids = new Map<SignedInUser, string>();
  for (const person of [a, b, c, owner]) ids.set(person, await userId(person.page));

  // The owner (a superadmin, so an admin of every channel) makes it walkie-talkie in the UI.
  const channels = (await (await owner.page.request.get('/api/channels')).json()) as {
    id: number;
    name: string;
  }[];
  const channelName = channels.find((channel) => channel.id === id)!.name;
  await owner.page.reload();
  await owner.page.getByRole('button', { name: 'Channels' }).click();
  await owner.page.getByRole('menu').getByRole('menuitem', { name: channelName }).first().click();
  await expect(owner.page.getByRole('heading', { name: channelName, exact: true })).toBeVisible();
  await owner.page.getByRole('button', { name: 'Talk mode' }).click();
  const dialog = owner.page.getByRole('dialog', { name: 'Talk mode' });
  await dialog.getByRole('radio', { name: /Walkie-talkie/ }).check();
  await expect(dialog.getByLabel('Maximum transmission (seconds)')).toHaveValue('60');
  for (const width of [390, 1280]) {
    await owner.page.setViewportSize({ width, height: 800 });
    await dialog.screenshot({ path: testInfo.outputPath(`talk-mode-dialog-${width}.png`) });
  }
  expect(await seriousViolations(owner.page)).toEqual([]);
  await dialog.getByLabel('Maximum transmission (seconds)').fill('2');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'Maximum transmission must be at least 5 seconds',
  );
  await dialog.getByLabel('Maximum transmission (seconds)').fill('60');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(owner.page.getByText('Talk mode saved').first()).toBeVisible();

  // Every member's screen says so without a reload (the channel_changed push).
  for (const person of [a, b, c, owner]) {
    await expect(person.page.getByText('Walkie-talkie channel')).toBeVisible({ timeout: 10_000 });
  }
  for (const person of [a, b, c, owner]) {
    await goOnline(person.page);
    await expect(voiceReady(person.page)).toBeVisible({ timeout: 20_000 });
    // Focus leaves the big button, so Space is push-to-talk and nothing else.
    await person.page.locator('body').click({ position: { x: 5, y: 5 } });
  }
  await expect(floorStatus(c.page)).toHaveText('Hold to talk — one at a time');
  // ONLINE in a walkie-talkie channel is listening only: nobody is heard until someone presses.
  await expect.poll(() => levelFrom(c.page, ids.get(a)!), { timeout: 10_000 }).toBeLessThan(SILENT);
  expect(await levelFrom(c.page, ids.get(b)!)).toBeLessThan(SILENT);

  // Ava and Ben turn each other down to 0 % (per-member volume), so what either hears is the
  // floor's tones alone: the winner's voice (the tests' 440 Hz) would otherwise blur the busy tone.
  for (const [listener, talker] of [
    [a, b],
    [b, a],
  ] as const) {
    const saved = listener.page.waitForResponse(
      (res) => res.url().includes('/api/voice-preferences/member-volumes/') && res.ok(),
    );
    const slider = listener.page.getByRole('slider', { name: `Volume for ${talker.person.name}` });
    await slider.focus();
    await listener.page.keyboard.press('Home');
    await expect(slider).toHaveValue('0');
    await saved;
    await listener.page.locator('body').click({ position: { x: 5, y: 5 } });
  }

  // Ava and Ben press at the same moment: the server gives the floor to exactly one of them.
  // Each listens for both tones from before the press; the window is wide for a loaded machine.
  const listen = (page: Page) =>
    Promise.all([watchOutput(page, 6_000, PERMIT), watchOutput(page, 6_000, BUSY)]);
  const tones = new Map([
    [a, await listen(a.page)],
    [b, await listen(b.page)],
  ]);
  // Tones are dated from their watch's start, a few ms before the press: an upper bound.
  const pressedAt = Date.now();
  await Promise.all([press(a.page), press(b.page)]);
  await expect
    .poll(async () => {
      const live = await Promise.all(
        [a, b].map(async (p) => (await floorStatus(p.page).textContent()) === 'You are live'),
      );
      return live.filter(Boolean).length;
    })
    .toBe(1);
  const liveAt = Date.now();
  const aWon = (await floorStatus(a.page).textContent()) === 'You are live';
  const [winner, loser] = aWon ? [a, b] : [b, a];
  await expect(floorStatus(loser.page)).toHaveText(`${winner.person.name} is talking`);
  await expect(floorStatus(c.page)).toHaveText(`${winner.person.name} is talking`);
  await expect
    .poll(() => levelFrom(c.page, ids.get(winner)!), { timeout: 10_000 })
    .toBeGreaterThan(AUDIBLE);
  const heardAt = Date.now();
  // The winner heard the talk-permit tone and no busy tone; the loser the busy tone and no permit.
  const heard = async (person: SignedInUser): Promise<[Heard, Heard]> => {
    const [permit, busy] = tones.get(person)!;
    return [await permit(), await busy()];
  };
  const [[winnerPermit, winnerBusy], [loserPermit, loserBusy]] = await Promise.all([
    heard(winner),
    heard(loser),
  ]);
  console.log(
    `walkie-talkie tones (amplitude, played at ${TONE_GAIN}): winner permit ${winnerPermit.level.toFixed(3)} busy ${winnerBusy.level.toFixed(3)}; loser permit ${loserPermit.level.toFixed(3)} busy ${loserBusy.level.toFixed(3)}`,
  );
  expect(winnerPermit.level).toBeGreaterThan(TONE_HEARD);
  expect(loserBusy.level).toBeGreaterThan(TONE_HEARD);
  expect(winnerBusy.level).toBeLessThan(TONE_ABSENT);
  expect(loserPermit.level).toBeLessThan(TONE_ABSENT);
  console.log(
    `walkie-talkie: press → permit tone ≤ ${Math.round(winnerPermit.at!)} ms (busy tone ≤ ${Math.round(loserBusy.at!)} ms), press → "You are live" ${liveAt - pressedAt} ms, press → heard at the listener ${heardAt - pressedAt} ms`,
  );
  testInfo.annotations.push({
    type: 'press → live → heard',
    description: `${liveAt - pressedAt} ms / ${heardAt - pressedAt} ms`,
  });
  for (const width of [390, 1280]) {
    for (const [who, person] of [
      ['talker', winner],
      ['listener', loser],
    ] as const) {
      await person.page.setViewportSize({ width, height: 900 });
      await person.page.screenshot({ path: testInfo.outputPath(`walkie-${who}-${width}.png`) });
    }
  }
  expect(await seriousViolations(loser.page)).toEqual([]);

  // The loser's page turns its microphone on by force: the server still forwards only the winner.
  await forceMicrophoneOn(loser.page);
  await expect.poll(() => levelFrom(c.page, ids.get(winner)!)).toBeGreaterThan(AUDIBLE);
  for (let i = 0; i < 5; i++) {
    expect(await levelFrom(c.page, ids.get(loser)!)).toBeLessThan(SILENT);
    await c.page.waitForTimeout(200);
  }
  await release(loser.page);

  // The winner lets go: the channel is clear and nobody is heard.
  await release(winner.page);
  await expect(floorStatus(c.page)).toHaveText('Hold to talk — one at a time', { timeout: 5_000 });
  await expect
    .poll(() => levelFrom(c.page, ids.get(winner)!), { timeout: 5_000 })
    .toBeLessThan(SILENT);

  // An admin cuts in: Ava holds the floor, the owner presses and takes it.
  const ava = a;
  // Ava may have just let go of a hold of her own: her next one waits the pause (decision 023).
  await ava.page.waitForTimeout(1_200);
  await press(ava.page);
  await expect(floorStatus(ava.page)).toHaveText('You are live');
  await expect
    .poll(() => levelFrom(c.page, ids.get(ava)!), { timeout: 10_000 })
    .toBeGreaterThan(AUDIBLE);
  // The talk button tells the admin a hold cuts in; a member is only told the floor is busy.
  await expect(
    owner.page.getByRole('button', { name: /^Busy\s+Hold to cut in$/ }),
  ).toBeVisible();
  await expect(c.page.getByRole('button', { name: 'Busy', exact: true })).toBeVisible();
  await press(owner.page);
  await expect(floorStatus(owner.page)).toHaveText('You are live');
  await expect(floorStatus(ava.page)).toHaveText(`${owner.person.name} is talking`);
  await expect(ava.page.getByText('Cut in').first()).toBeVisible();
  await expect
    .poll(() => levelFrom(c.page, ids.get(owner)!), { timeout: 10_000 })
    .toBeGreaterThan(AUDIBLE);
  await expect
    .poll(() => levelFrom(c.page, ids.get(ava)!), { timeout: 5_000 })
    .toBeLessThan(SILENT);
  await release(owner.page);
  await release(ava.page);

  for (const person of [a, b, c, owner]) await person.context.close();
});
