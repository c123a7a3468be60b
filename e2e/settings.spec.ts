import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { OWNER, newPerson } from './support/accounts';
import { seriousViolations } from './support/axe';
import { cardOf, twoMembersInOneChannel, userIdOf } from './support/channel-setup';
import { expect, openAs, test } from './support/fixtures';

/** Settings in sections (issue 29): You · Voice and devices · Notifications · Channels · Server. */

const SHOTS = process.env.E2E_SHOTS_DIR;

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/settings-${name}.png`, fullPage: true });
}

const sectionTab = (page: Page, name: string) => page.getByRole('tab', { name });

test('at 390 px a member moves between sections by keyboard and changes their name, which the channel sees', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000); // three people signed in, and axe on every section
  const { a, b } = await twoMembersInOneChannel(browser, baseURL!);
  const page = a.page;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);

  const tabs = page.getByRole('tablist', { name: 'Settings sections' });
  // A free member may not see server settings: four sections, no Server.
  await expect(tabs.getByRole('tab')).toHaveText(['You', 'Voice and devices', 'Notifications', 'Channels']);
  await expect(sectionTab(page, 'You')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'Your name' })).toBeVisible();
  // Every tab fits on the phone's screen (the list wraps rather than cutting a tab off).
  for (const tab of await tabs.getByRole('tab').all()) {
    const box = (await tab.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, 'you-390');

  // Arrow keys move between sections; each shows its own cards, and the address keeps it.
  await sectionTab(page, 'You').focus();
  const expected: [string, string, RegExp][] = [
    ['Voice and devices', 'Microphone and speaker', /section=voice/],
    ['Notifications', 'Notifications', /section=notifications/],
    ['Channels', 'Channel Management', /section=channels/],
  ];
  for (const [tab, heading, url] of expected) {
    await page.keyboard.press('ArrowRight');
    await expect(sectionTab(page, tab)).toBeFocused();
    await expect(sectionTab(page, tab)).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel').getByRole('heading', { level: 3, name: heading, exact: true })).toBeVisible();
    await expect(page).toHaveURL(url);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, `${url.source.replace('section=', '')}-390`);
  }
  await expect(page.getByRole('heading', { name: 'Your name' })).toHaveCount(0);
  // A reload keeps the section.
  await page.reload();
  await expect(sectionTab(page, 'Channels')).toHaveAttribute('aria-selected', 'true');
  await sectionTab(page, 'Channels').focus();
  await page.keyboard.press('Home');
  await expect(sectionTab(page, 'You')).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\/settings$/);

  // The name, in You.
  const tag = randomBytes(2).toString('hex');
  const first = page.getByLabel('First name');
  const last = page.getByLabel('Last name');
  await first.fill('Avery');
  await last.fill(`Renamed${tag}`);
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Name changed', { exact: true })).toBeVisible();
  await expect(page.getByText(`People now see you as Avery Renamed${tag}.`, { exact: true })).toBeVisible();
  await expect(page.getByText(`Avery Renamed${tag}`, { exact: true }).first()).toBeVisible();

  // The other member sees the new name in the channel's member list (at the next poll, 5 s).
  await expect(cardOf(b.page, `Avery Renamed${tag}`)).toBeVisible({ timeout: 15_000 });
  await expect(cardOf(b.page, a.person.name)).toHaveCount(0);
  // And so does the user, back on the main screen.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(cardOf(page, `Avery Renamed${tag}`)).toBeVisible();
  for (const user of [a, b]) await user.context.close();
});

test('the owner sees the Server section, tests the microphone, and gets confirmations for tier changes and blocks', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const owner = await openAs(browser, OWNER);
  const pia = await openAs(browser, newPerson('Pia', `Tier${randomBytes(2).toString('hex')}`));
  await userIdOf(pia.page);
  const page = owner.page;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/settings');
  await expect(page.getByRole('tab')).toHaveText(['You', 'Voice and devices', 'Notifications', 'Channels', 'Server']);
  await shot(page, 'you-1280');

  await page.getByRole('tab', { name: 'Server' }).click();
  await expect(page).toHaveURL(/section=server/);
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  // The selector says what it does; the badge beside it says the tier, in words.
  const tier = page.getByRole('combobox', { name: `Tier for ${pia.person.name}` });
  await expect(tier).toHaveText('Change tier');
  await tier.click();
  await expect(page.getByRole('option')).toHaveText(['Free', 'Member', 'Admin']);
  await page.getByRole('option', { name: 'Member', exact: true }).click();
  await expect(page.getByText('Tier changed', { exact: true })).toBeVisible();
  await expect(page.getByText(`${pia.person.name} is now a Member.`, { exact: true })).toBeVisible();
  await shot(page, 'server-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate('window.scrollTo(0, 0)');
  await shot(page, 'server-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Voice and devices: the microphone test opens the (fake) microphone and shows its level.
  await page.getByRole('tab', { name: 'Voice and devices' }).click();
  await expect(page.getByRole('combobox', { name: 'Microphone' })).toHaveText('System default');
  await page.getByRole('button', { name: 'Test microphone' }).click();
  // The fake microphone beeps once a second: the meter jumps with each beep, and the test says so.
  await expect(page.getByRole('meter', { name: 'Microphone level' })).toBeVisible();
  await expect(page.getByText('Chirp hears this microphone.')).toBeVisible({ timeout: 10_000 });
  await expect(page.getByRole('button', { name: 'Stop test' })).toBeVisible();
  // Once allowed, the browser names its microphones, and one can be chosen.
  await page.getByRole('combobox', { name: 'Microphone' }).click();
  const options = page.getByRole('option');
  await expect(options.nth(1)).toBeVisible();
  // An open list makes the rest of the page inert, not only aria-hidden around focusable buttons.
  expect(await seriousViolations(page)).toEqual([]);
  const chosen = (await options.nth(1).textContent())!;
  await options.nth(1).click();
  await expect(page.getByRole('combobox', { name: 'Microphone' })).toHaveText(chosen);
  expect(await page.evaluate(() => localStorage.getItem('chirp.microphoneId'))).toBeTruthy();
  await shot(page, 'voice-1280');
  // Leaving the section stops the test.
  await page.getByRole('tab', { name: 'Notifications' }).click();
  await page.getByRole('tab', { name: 'Voice and devices' }).click();
  await expect(page.getByRole('button', { name: 'Test microphone' })).toBeVisible();
  for (const section of ['Notifications', 'Channels']) {
    await page.getByRole('tab', { name: section }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, `${section.toLowerCase()}-1280`);
  }

  // Blocking from You confirms with a toast, and so does unblocking.
  await page.getByRole('tab', { name: 'You' }).click();
  await page.getByRole('combobox', { name: 'Block a user' }).click();
  await page.getByRole('option', { name: pia.person.name }).click();
  await page.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(page.getByText(`${pia.person.name} blocked`, { exact: true })).toBeVisible();
  await page.getByRole('button', { name: `Unblock ${pia.person.name}` }).click();
  await expect(page.getByText(`${pia.person.name} unblocked`, { exact: true })).toBeVisible();
  for (const user of [owner, pia]) await user.context.close();
});

test('the Upgrade page marks the plan you have and sells only what a plan adds', async ({ browser }) => {
  const free = await openAs(browser, newPerson('Fay', 'Free'));
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await free.page.setViewportSize({ width, height });
    await free.page.goto('/upgrade');
    const freePlan = free.page.locator('[aria-labelledby="plan-free"]');
    await expect(freePlan.getByText('Your plan')).toBeVisible();
    await expect(freePlan.getByText('One-to-one calls and pokes')).toBeVisible();
    const member = free.page.locator('[aria-labelledby="plan-member"]');
    await expect(member.getByText('One-to-one calls and pokes')).toHaveCount(0);
    await expect(member.getByRole('button', { name: 'Start free trial' })).toBeEnabled();
    expect(await seriousViolations(free.page)).toEqual([]);
    if (SHOTS) await free.page.screenshot({ path: `${SHOTS}/settings-upgrade-free-${width}.png`, fullPage: true });
  }
  await free.context.close();

  const owner = await openAs(browser, OWNER);
  await owner.page.goto('/upgrade');
  await expect(owner.page.getByText('You own this server as its Super Admin')).toBeVisible();
  await expect(owner.page.getByRole('button', { name: 'Included in your plan' })).toHaveCount(2);
  await owner.context.close();
});
