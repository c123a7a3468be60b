import { newPerson } from './support/accounts';
import { seriousViolations } from './support/axe';
import { expect, test, type SignedInUser } from './support/fixtures';
import { installOutputProbe, watchOutput } from './support/output-probe';
import { AUDIBLE, channelWithAdmin, goOnline, holdToTalkTimes, open, voiceReady } from './support/voice-audio';

/**
 * In Chromium with real audio, on the built-in SFU and on LiveKit (the `livekit` project runs the
 * tests tagged @livekit; there the server's own listen-only recorder joins the room as Ava enters
 * it, so her first words are kept): Ben is offline while Ava makes three transmissions in a
 * walkie-talkie channel; when he comes back he sees "3 missed", opens the list and plays all three
 * in order, hearing Ava's voice (the tests' 440 Hz microphone) in each.
 */
test.describe.configure({ timeout: 150_000 });

const VOICE = { hz: 440, seconds: 0.25 };

test('a member offline during three transmissions sees "3 missed" and plays them in order @livekit', async ({
  browser,
  baseURL,
}, testInfo) => {
  const avaPerson = newPerson('Ava');
  const benPerson = newPerson('Ben');
  const ava = await open(browser, avaPerson, 'tone');
  let ben = await open(browser, benPerson, 'tone');
  const { id, owner } = await channelWithAdmin(browser, baseURL!, [ava, ben]);
  const walkie = await owner.page.request.put(`/api/channels/${id}/talk-mode`, {
    data: { talkMode: 'walkie' },
    headers: { origin: baseURL! },
  });
  expect(await walkie.json()).toMatchObject({ talkMode: 'walkie', keepTransmissions: true });
  await owner.context.close();

  // Ben sees the (empty) list's button, then goes away entirely.
  await expect(ben.page.getByText('Walkie-talkie channel')).toBeVisible({ timeout: 10_000 });
  await expect(ben.page.getByRole('button', { name: 'Transmissions' })).toBeVisible();
  await ben.context.close();

  await expect(ava.page.getByText('Walkie-talkie channel')).toBeVisible({ timeout: 10_000 });
  await goOnline(ava.page);
  await expect(voiceReady(ava.page)).toBeVisible({ timeout: 20_000 });
  await holdToTalkTimes(ava.page, 3);

  // Ben comes back: what was said while he was away is waiting for him.
  ben = await open(browser, benPerson, 'tone');
  await ben.context.addInitScript(installOutputProbe);
  await ben.page.reload();
  const missed = ben.page.getByRole('button', { name: '3 missed' });
  await expect(missed).toBeVisible({ timeout: 15_000 });

  // The Channels menu says it too, beside the channel, with Ava still there to answer.
  await ben.page.getByRole('button', { name: 'Channels' }).click();
  const menu = ben.page.getByRole('menu', { name: 'Channels' });
  const item = menu.getByRole('menuitem').filter({ hasText: '3 missed' });
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('1 online');
  for (const width of [390, 1280]) {
    await ben.page.setViewportSize({ width, height: 900 });
    await ben.page.screenshot({ path: testInfo.outputPath(`channels-menu-${width}.png`) });
  }
  expect(await seriousViolations(ben.page)).toEqual([]);
  await ben.page.keyboard.press('Escape');
  await expect(menu).toBeHidden();

  await missed.click();
  const dialog = ben.page.getByRole('dialog', { name: 'Transmissions' });
  const items = dialog.getByRole('list', { name: 'Kept transmissions' }).getByRole('listitem');
  await expect(items).toHaveCount(3);
  for (let i = 0; i < 3; i++) {
    await expect(items.nth(i)).toContainText(avaPerson.name);
    await expect(items.nth(i)).toContainText('Missed');
    // Held for 1.5 s after the grant: each kept transmission lasts about that long.
    await expect(items.nth(i)).toContainText(/0:0[12]/);
  }
  for (const width of [390, 1280]) {
    await ben.page.setViewportSize({ width, height: 900 });
    await dialog.screenshot({ path: testInfo.outputPath(`transmissions-${width}.png`) });
  }
  expect(await seriousViolations(ben.page)).toEqual([]);

  // Speed: 1× and 1.5×, one pressed at a time.
  const speed = dialog.getByRole('group', { name: 'Playback speed' });
  await speed.getByRole('button', { name: '1.5×' }).click();
  await expect(speed.getByRole('button', { name: '1.5×' })).toHaveAttribute('aria-pressed', 'true');
  await expect(speed.getByRole('button', { name: '1×' })).toHaveAttribute('aria-pressed', 'false');
  await speed.getByRole('button', { name: '1×' }).click();

  // Play all, from the keyboard: each of the three plays in turn, and each is Ava's voice.
  await dialog.getByRole('button', { name: 'Play all' }).focus();
  await ben.page.keyboard.press('Enter');
  const status = dialog.getByRole('status');
  for (let n = 1; n <= 3; n++) {
    await expect(status).toHaveText(new RegExp(`^Playing ${n} of 3: ${avaPerson.name}`), {
      timeout: 10_000,
    });
    await expect(items.nth(n - 1)).toHaveAttribute('aria-current', 'true');
    if (n === 1) await dialog.screenshot({ path: testInfo.outputPath('transmissions-playing.png') });
    const heard = await watchOutput(ben.page, 600, VOICE);
    const { level } = await heard();
    console.log(`missed transmission ${n} of 3: Ava's 440 Hz at ${level.toFixed(3)}`);
    expect(level).toBeGreaterThan(AUDIBLE);
  }
  // After the third, the player stops: nothing is playing and nothing is heard.
  await expect(status).toHaveText('', { timeout: 10_000 });
  const after = await watchOutput(ben.page, 600, VOICE);
  expect((await after()).level).toBeLessThan(AUDIBLE / 5);

  // One on its own: the second, from its own button.
  await items.nth(1).getByRole('button', { name: new RegExp(`^Play ${avaPerson.name} at`) }).click();
  await expect(status).toHaveText(new RegExp(`^Playing 1 of 1: ${avaPerson.name}`));
  await expect(items.nth(1)).toHaveAttribute('aria-current', 'true');
  const single = await watchOutput(ben.page, 600, VOICE);
  expect((await single()).level).toBeGreaterThan(AUDIBLE);
  await expect(status).toHaveText('', { timeout: 10_000 });

  // Seen: the count starts again from zero, also after a reload.
  await ben.page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(ben.page.getByRole('button', { name: 'Transmissions' })).toBeVisible();
  await ben.page.reload();
  await expect(ben.page.getByRole('button', { name: 'Transmissions' })).toBeVisible({
    timeout: 10_000,
  });

  for (const person of [ava, ben] as SignedInUser[]) await person.context.close();
});
