import { newPerson } from './support/accounts';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { ROGER_BEEP } from '../client/src/features/voice/tones';
import { installOutputProbe, outputLevel, watchOutput } from './support/output-probe';
import { AUDIBLE, SILENT, channelWith, goOnline, levelFrom, open, userId } from './support/voice-audio';

// Several people, real audio and reloads: longer than the default minute on a busy machine.
test.describe.configure({ timeout: 120_000 });

test('a listener turns one member down to silence and up to double, and it stays after a reload', async ({
  browser,
  baseURL,
}, testInfo) => {
  const a = await open(browser, newPerson('Ava'), 'tone');
  const b = await open(browser, newPerson('Ben'), 'tone');
  await b.context.addInitScript(installOutputProbe);
  // channelWith reloads both pages, so the probe is in place before Ben's app starts.
  await channelWith(browser, baseURL!, [a, b]);
  const aId = await userId(a.page);

  await goOnline(a.page);
  await goOnline(b.page);
  await expect(b.page.getByText('Voice Ready', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => levelFrom(b.page, aId), { timeout: 15_000 }).toBeGreaterThan(AUDIBLE);

  const slider = b.page.getByRole('slider', { name: `Volume for ${a.person.name}` });
  await expect(slider).toHaveValue('100');
  const avaCard = b.page.getByTestId('member-card').filter({ hasText: a.person.name });
  await expect(avaCard.getByText('100%')).toBeVisible();
  // Ben has no slider for himself: his own voice is never played to him.
  await expect(b.page.getByRole('slider', { name: `Volume for ${b.person.name}` })).toHaveCount(0);

  await expect.poll(() => outputLevel(b.page), { timeout: 10_000 }).toBeGreaterThan(AUDIBLE);
  const atFull = await outputLevel(b.page);

  // 0 %: Ava still arrives (the stream is live) but Ben's speakers get nothing of her.
  const saved = b.page.waitForResponse(
    (res) => res.url().includes('/api/voice-preferences/member-volumes/') && res.ok(),
  );
  await slider.focus();
  await b.page.keyboard.press('Home');
  await expect(slider).toHaveValue('0');
  await expect(avaCard.getByText('0%')).toBeVisible();
  await expect.poll(() => outputLevel(b.page), { timeout: 5_000 }).toBeLessThan(SILENT);
  const atZero = await outputLevel(b.page);
  // A loaded machine can drop a moment of Ava's stream: poll rather than trust one read.
  await expect.poll(() => levelFrom(b.page, aId), { timeout: 10_000 }).toBeGreaterThan(AUDIBLE);
  await saved;

  // 200 %: twice the gain, so clearly louder than at 100 %.
  await b.page.keyboard.press('End');
  await expect(slider).toHaveValue('200');
  await expect.poll(() => outputLevel(b.page), { timeout: 5_000 }).toBeGreaterThan(atFull * 1.6);
  const atDouble = await outputLevel(b.page);
  testInfo.annotations.push({
    type: 'output RMS at 0/100/200 %',
    description: `0 %: ${atZero.toFixed(4)}, 100 %: ${atFull.toFixed(3)}, 200 %: ${atDouble.toFixed(3)}`,
  });

  // Arrow keys move in 5 % steps; the last one is what the server keeps.
  const lastSave = b.page.waitForResponse(
    (res) => res.url().includes('/api/voice-preferences/member-volumes/') && res.ok(),
  );
  await b.page.keyboard.press('ArrowLeft');
  await expect(slider).toHaveValue('195');
  await lastSave;

  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await b.page.setViewportSize({ width, height });
    await b.page.screenshot({
      path: testInfo.outputPath(`member-volume-${width}.png`),
      fullPage: true,
    });
  }
  expect(await seriousViolations(b.page)).toEqual([]);

  // Kept on the server: after a reload (and on any other device) Ava plays at 195 % again.
  await b.page.reload();
  await expect(slider).toHaveValue('195');
  await expect(avaCard.getByText('195%')).toBeVisible();
  await goOnline(b.page);
  await expect(b.page.getByText('Voice Ready', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => outputLevel(b.page), { timeout: 15_000 }).toBeGreaterThan(atFull * 1.6);

  await a.context.close();
  await b.context.close();
});

test('the roger beep: off by default, kept on the server, heard when a hold-to-talk ends', async ({
  browser,
  baseURL,
}, testInfo) => {
  const c = await open(browser, newPerson('Cleo'), 'tone');
  await c.context.addInitScript(installOutputProbe);
  await channelWith(browser, baseURL!, [c]);

  await c.page.goto('/settings?section=voice');
  await c.page.getByRole('radio', { name: /Hold to talk/ }).check();
  const rogerBeep = c.page.getByRole('switch', { name: 'Roger beep' });
  await expect(rogerBeep).toBeEnabled();
  await expect(rogerBeep).not.toBeChecked();
  const saved = c.page.waitForResponse(
    (res) => res.url().endsWith('/api/voice-preferences') && res.request().method() === 'PATCH',
  );
  // The switch follows the saved preference, which can lag the click on a busy machine.
  await rogerBeep.click();
  expect((await saved).ok()).toBe(true);
  await expect(rogerBeep).toBeChecked();
  await c.page.reload();
  await expect(rogerBeep).toBeChecked();
  for (const width of [390, 1280]) {
    await c.page.setViewportSize({ width, height: 900 });
    await c.page
      .getByText('Talk mode', { exact: true })
      .first()
      .locator('xpath=ancestor::*[contains(@class,"rounded")][1]')
      .screenshot({ path: testInfo.outputPath(`roger-beep-${width}.png`) });
  }
  await c.page.getByRole('button', { name: 'Back' }).click();

  await goOnline(c.page);
  await expect(c.page.getByText('Voice Ready', { exact: true })).toBeVisible({ timeout: 20_000 });
  // Alone in the channel: nothing plays until the beep (the connect tone has faded by now).
  await expect.poll(() => outputLevel(c.page), { timeout: 5_000 }).toBeLessThan(SILENT);

  const holdAndRelease = async () => {
    await c.page.locator('body').click({ position: { x: 5, y: 5 } });
    await c.page.keyboard.down('Space');
    await expect(c.page.getByTestId('member-card').filter({ hasText: '(you)' })).toContainText(
      'Speaking',
    );
    const beep = await watchOutput(c.page, 1500, {
      hz: ROGER_BEEP.frequencies[0],
      seconds: ROGER_BEEP.seconds / 2,
    });
    await c.page.keyboard.up('Space');
    return (await beep()).level;
  };
  expect(await holdAndRelease()).toBeGreaterThan(AUDIBLE);

  // Switched off in Settings (voice stays connected across screens): release is silent again.
  await c.page.getByRole('button', { name: 'Settings' }).click();
  await c.page.getByRole('tab', { name: 'Voice and devices' }).click(); // Settings is in sections
  const savedOff = c.page.waitForResponse(
    (res) => res.url().endsWith('/api/voice-preferences') && res.request().method() === 'PATCH',
  );
  await rogerBeep.click();
  expect((await savedOff).ok()).toBe(true);
  await expect(rogerBeep).not.toBeChecked();
  await c.page.getByRole('button', { name: 'Back' }).click();
  await expect(c.page.getByText('Voice Ready', { exact: true })).toBeVisible();
  await expect.poll(() => outputLevel(c.page), { timeout: 5_000 }).toBeLessThan(SILENT);
  expect(await holdAndRelease()).toBeLessThan(SILENT);
  await c.context.close();
});
