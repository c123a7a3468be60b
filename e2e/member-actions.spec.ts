import { copyFileSync, mkdirSync } from 'node:fs';
import type { Page, TestInfo } from '@playwright/test';
import { OWNER, newPerson } from './support/accounts';
import { seriousViolations } from './support/axe';
import { cardOf, userIdOf } from './support/channel-setup';
import { expect, openAs, test, type SignedInUser } from './support/fixtures';
import { channelWithAdmin, goOnline, open } from './support/voice-audio';

/** A member card's menu (decision 044): Poke, Call, Talk; Mute and Remove for the channel's admin. */

const SHOTS = '/work/wt/shots';

/** Saves a screenshot in the test's output and, where the folder exists, beside the others. */
async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  try {
    mkdirSync(SHOTS, { recursive: true });
    copyFileSync(path, `${SHOTS}/members-${name}.png`);
  } catch {
    // Not on the machine the screenshots are reviewed on: the test output keeps them.
  }
}

/** The owner makes a channel from the Channels menu (it becomes theirs and current), adds people. */
async function ownersChannel(
  baseURL: string,
  owner: SignedInUser,
  people: SignedInUser[],
): Promise<{ id: number; name: string }> {
  const name = `Family ${Date.now()}`;
  await owner.page.getByRole('button', { name: 'Channels' }).click();
  await owner.page.getByRole('menuitem', { name: 'Create New Channel' }).click();
  const dialog = owner.page.getByRole('dialog', { name: 'Create New Channel' });
  const created = owner.page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/channels') && response.request().method() === 'POST',
  );
  await dialog.getByLabel('Channel name').fill(name);
  await dialog.getByRole('button', { name: 'Create Channel' }).click();
  const { id } = (await (await created).json()) as { id: number };
  for (const person of people) {
    const added = await owner.page.request.post(`/api/channels/${id}/members`, {
      data: { userId: await userIdOf(person.page) },
      headers: { origin: baseURL },
    });
    expect(added.ok()).toBe(true);
    await person.page.reload();
    await expect(person.page.getByRole('heading', { name, exact: true })).toBeVisible();
  }
  await expect(owner.page.getByRole('heading', { name, exact: true })).toBeVisible();
  return { id, name };
}

const membersOf = (page: Page) => page.getByRole('list', { name: 'Members' });

async function openMenuOf(page: Page, name: string) {
  await membersOf(page)
    .getByRole('button', { name: `Actions for ${name}` })
    .click();
  const menu = page.getByRole('menu', { name: `Actions for ${name}` });
  await expect(menu).toBeVisible();
  return menu;
}

test('the admin mutes Ben from his card menu; Ben is told who muted him, and when he is unmuted', async ({
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(90_000);
  const owner = await openAs(browser, OWNER);
  const ben = await openAs(browser, newPerson('Ben'));
  const ava = await openAs(browser, newPerson('Ava'));
  await ownersChannel(baseURL!, owner, [ben, ava]);
  await owner.page.setViewportSize({ width: 390, height: 844 });

  // A member's menu: no admin items. Keyboard: the trigger opens on Enter, Escape closes it.
  await membersOf(ava.page)
    .getByRole('button', { name: `Actions for ${ben.person.name}` })
    .focus();
  await ava.page.keyboard.press('Enter');
  const avasMenu = ava.page.getByRole('menu', { name: `Actions for ${ben.person.name}` });
  await expect(avasMenu.getByRole('menuitem')).toHaveText(['Poke', 'Call', 'Talk']);
  await ava.page.keyboard.press('Escape');
  await expect(avasMenu).toBeHidden();

  // The admin's menu has Mute and Remove too; axe finds nothing serious with it open.
  const menu = await openMenuOf(owner.page, ben.person.name);
  await expect(menu.getByRole('menuitem')).toHaveText(['Poke', 'Call', 'Talk', 'Mute', 'Remove…']);
  expect(await seriousViolations(owner.page)).toEqual([]);
  await shot(owner.page, testInfo, 'menu-admin-390');
  await owner.page.setViewportSize({ width: 1280, height: 800 });
  await expect(menu).toBeVisible();
  await shot(owner.page, testInfo, 'menu-admin-1280');
  await menu.getByRole('menuitem', { name: 'Mute' }).click();
  await expect(cardOf(owner.page, ben.person.name)).toContainText('Muted');

  // Ben is told at once, by name, and his controls keep saying so.
  await expect(ben.page.getByText(`Muted by ${OWNER.name}`, { exact: true }).first()).toBeVisible();
  const note = ben.page
    .getByRole('region', { name: 'Voice' })
    .getByRole('status')
    .filter({ hasText: `Muted by ${OWNER.name}` });
  await expect(note).toContainText('No one in this channel hears you until an admin unmutes you.');
  for (const width of [390, 1280]) {
    await ben.page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await shot(ben.page, testInfo, `muted-by-admin-${width}`);
  }
  expect(await seriousViolations(ben.page)).toEqual([]);

  // Unmuted from the same menu: Ben hears so, and the note goes.
  await (
    await openMenuOf(owner.page, ben.person.name)
  )
    .getByRole('menuitem', { name: 'Unmute' })
    .click();
  await expect(ben.page.getByText('You can talk again', { exact: true })).toBeVisible();
  await expect(ben.page.getByText(`Unmuted by ${OWNER.name}`, { exact: true })).toBeVisible();
  await expect(note).toHaveCount(0);
  for (const user of [owner, ben, ava]) await user.context.close();
});

test('the admin removes a member after confirming, the cards stay put, and Undo brings them back', async ({
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(150_000);
  const owner = await openAs(browser, OWNER);
  const ava = await openAs(browser, newPerson('Ava'));
  const ben = await openAs(browser, newPerson('Ben'));
  const cal = await openAs(browser, newPerson('Cal'));
  const { id, name: channelName } = await ownersChannel(baseURL!, owner, [ava, ben, cal]);
  const page = owner.page;
  const benId = await userIdOf(ben.page);
  const memberIds = async () =>
    (await (await page.request.get(`/api/channels/${id}/members`)).json()) as {
      id: string;
      role: string;
    }[];

  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    // Cancel removes nobody.
    await (
      await openMenuOf(page, ben.person.name)
    )
      .getByRole('menuitem', { name: 'Remove…' })
      .click();
    const confirm = page.getByRole('alertdialog', { name: `Remove ${ben.person.name}?` });
    await expect(confirm).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, testInfo, `remove-confirm-${width}`);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    expect((await memberIds()).map((m) => m.id)).toContain(benId);

    // Remove: the card's place holds ("Removed"), so Cal's button is where it was.
    const calButton = membersOf(page).getByRole('button', {
      name: `Actions for ${cal.person.name}`,
    });
    const before = await calButton.boundingBox();
    await (
      await openMenuOf(page, ben.person.name)
    )
      .getByRole('menuitem', { name: 'Remove…' })
      .click();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByText(`Removed ${ben.person.name}`, { exact: true })).toBeVisible();
    await expect(page.getByTestId('removed-member-card')).toContainText(ben.person.name);
    expect(await calButton.boundingBox()).toEqual(before);
    await shot(page, testInfo, `removed-undo-${width}`);
    expect((await memberIds()).map((m) => m.id)).not.toContain(benId);

    // Undo adds Ben back as a member.
    await page.getByRole('button', { name: `Undo removing ${ben.person.name}` }).click();
    await expect(
      page.getByText(`${ben.person.name} is back in the channel`, { exact: true }),
    ).toBeVisible();
    await expect(cardOf(page, ben.person.name)).toBeVisible();
    expect((await memberIds()).find((m) => m.id === benId)?.role).toBe('member');
    await expect(page.getByTestId('removed-member-card')).toHaveCount(0);
  }

  // Settings → Member Management asks the same way and offers the same Undo.
  await page.goto('/settings?section=channels');
  const management = page.locator('#member-management');
  const channelChoice = management.getByRole('combobox', { name: 'Channel' });
  await expect(async () => {
    if (!(await page.getByRole('option', { name: channelName }).isVisible()))
      await channelChoice.click();
    await page.getByRole('option', { name: channelName }).click({ timeout: 2_000 });
    await expect(channelChoice).toHaveText(channelName, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await management.getByRole('button', { name: `Remove ${ben.person.name}` }).click();
  const asked = page.getByRole('alertdialog', { name: `Remove ${ben.person.name}?` });
  await asked.getByRole('button', { name: 'Cancel' }).click();
  expect((await memberIds()).map((m) => m.id)).toContain(benId);
  await management.getByRole('button', { name: `Remove ${ben.person.name}` }).click();
  await asked.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText(`Removed ${ben.person.name}`, { exact: true })).toBeVisible();
  expect((await memberIds()).map((m) => m.id)).not.toContain(benId);
  await page.getByRole('button', { name: `Undo removing ${ben.person.name}` }).click();
  await expect(
    management.getByRole('list', { name: 'Channel members' }).getByText(ben.person.name),
  ).toBeVisible();
  for (const user of [owner, ava, ben, cal]) await user.context.close();
});

test('a lost server keeps the last-known members, marked as reconnecting, and refreshes by itself', async ({
  browser,
  baseURL,
}, testInfo) => {
  const owner = await openAs(browser, OWNER);
  const ava = await openAs(browser, newPerson('Ava'));
  await ownersChannel(baseURL!, owner, [ava]);
  const page = ava.page;
  await expect(cardOf(page, OWNER.name)).toBeVisible();

  // The server stops answering (the members poll runs every 5 s).
  await page.route('**/api/channels/*/members', (route) => route.abort());
  await expect(page.getByText('Reconnecting...', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(cardOf(page, OWNER.name)).toBeVisible();
  await expect(cardOf(page, ava.person.name)).toBeVisible();
  await expect(page.getByText('Failed to fetch members')).toHaveCount(0);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await shot(page, testInfo, `reconnecting-${width}`);
  }
  expect(await seriousViolations(page)).toEqual([]);
  // Retry asks again at once (still failing: the note stays).
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByText('Reconnecting...', { exact: true })).toBeVisible();

  // Back: the next poll refreshes the list without a press.
  await page.unroute('**/api/channels/*/members');
  await expect(page.getByText('Reconnecting...', { exact: true })).toBeHidden({ timeout: 15_000 });
  await expect(cardOf(page, OWNER.name)).toBeVisible();
  for (const user of [owner, ava]) await user.context.close();
});

test('the member heard now says Speaking and comes first; a silent open microphone and an admin-muted voice do not @livekit', async ({
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(90_000);
  const ava = await open(browser, newPerson('Ava'), 'voice');
  // Named to sort after the others: listed first only because he is heard.
  const zed = await open(browser, newPerson('Zed'), 'voice');
  const quiet = await open(browser, newPerson('Bea'), 'silent');
  const { id, owner } = await channelWithAdmin(browser, baseURL!, [ava, zed, quiet]);
  for (const user of [ava, zed, quiet]) {
    await goOnline(user.page);
    await expect(user.page.getByText('Voice Ready', { exact: true })).toBeVisible({
      timeout: 20_000,
    });
  }
  await ava.page.getByRole('button', { name: 'Mute Self' }).click();

  // On Ava's page: Zed's voice is heard, Bea's open microphone is silent.
  const page = ava.page;
  await expect(cardOf(page, zed.person.name)).toContainText('Speaking', { timeout: 15_000 });
  await expect(membersOf(page).getByTestId('member-card').first()).toContainText(zed.person.name);
  await expect(cardOf(page, quiet.person.name)).toContainText('Online');
  await expect(cardOf(page, quiet.person.name)).not.toContainText('Speaking');
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await shot(
      page,
      testInfo,
      `heard-${width}${testInfo.project.name === 'livekit' ? '-livekit' : ''}`,
    );
  }

  // The admin mutes Zed: never Speaking again, however his microphone sounds.
  const muted = await owner.page.request.post(
    `/api/channels/${id}/members/${await userIdOf(zed.page)}/mute`,
    { headers: { origin: baseURL! } },
  );
  expect(muted.ok()).toBe(true);
  await expect(cardOf(page, zed.person.name)).toContainText('Muted');
  await expect(cardOf(page, zed.person.name)).not.toContainText('Speaking');
  await page.waitForTimeout(1500);
  await expect(cardOf(page, zed.person.name)).not.toContainText('Speaking');
  for (const user of [owner, ava, zed, quiet]) await user.context.close();
});
