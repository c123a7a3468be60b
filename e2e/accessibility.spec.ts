import type { Browser, Page } from '@playwright/test';
import { OWNER, newPerson } from './support/accounts';
import { seriousViolations } from './support/axe';
import { userIdOf } from './support/channel-setup';
import { expect, openAs, test, type SignedInUser } from './support/fixtures';

/**
 * Axe finds no serious or critical problem on any screen, menu, dialog or call
 * screen, in the light and the dark theme, on a phone and on a desktop.
 */
const SIZES = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

/** Runs axe on what `page` shows now in both themes; records each finding with where it was. */
async function audit(page: Page, where: string, found: string[]): Promise<void> {
  const started = Date.now();
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    for (const violation of await seriousViolations(page))
      found.push(`${where} (${colorScheme}): ${violation}`);
  }
  if (process.env.AXE_TIMING) console.log(`axe ${where}: ${Date.now() - started} ms`);
}

async function openSized(
  browser: Browser,
  person: typeof OWNER,
  viewport: { width: number; height: number },
): Promise<SignedInUser> {
  const user = await openAs(browser, person);
  await user.page.setViewportSize(viewport);
  return user;
}

/** Escape, and wait for the overlay to go, so the next audit sees the page underneath. */
async function close(page: Page, overlay: ReturnType<Page['getByRole']>): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(overlay).toBeHidden();
}

/** The owner (superadmin) with a channel of their own and one member in it, both at `viewport`. */
async function ownerWithMember(
  browser: Browser,
  baseURL: string,
  size: string,
  viewport: { width: number; height: number },
) {
  const headers = { origin: baseURL };
  const owner = await openSized(browser, OWNER, viewport);
  const member = await openSized(browser, newPerson('Ally', `A${size}${Date.now()}`), viewport);
  const name = `Access ${size} ${Date.now()}`;
  const created = await owner.page.request.post('/api/channels', { data: { name }, headers });
  const { id: channelId } = (await created.json()) as { id: number };
  const memberId = await userIdOf(member.page);
  await owner.page.request.post(`/api/channels/${channelId}/members`, {
    data: { userId: memberId },
    headers,
  });
  return { owner, member, memberId, name, headers };
}

for (const [size, viewport] of Object.entries(SIZES)) {
  test(`no serious accessibility problems on the landing, main screen, menus and dialogs, ${size}`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(process.env.AXE_TIMING ? 600_000 : 240_000);
    const found: string[] = [];

    const visitor = await browser.newContext({ viewport });
    const landing = await visitor.newPage();
    await landing.goto('/');
    await expect(landing.getByRole('button', { name: 'Continue to Sign In' })).toBeVisible();
    await audit(landing, 'landing', found);
    await visitor.close();

    // The member is made an admin with a channel the owner is not in, for the "Join?" question.
    const { owner, member, memberId, name, headers } = await ownerWithMember(
      browser,
      baseURL!,
      size,
      viewport,
    );
    const page = owner.page;
    await page.request.post(`/api/users/${memberId}/subscription`, {
      data: { subscriptionTier: 'admin' },
      headers,
    });
    const otherName = `Other ${size} ${Date.now()}`;
    await member.page.request.post('/api/channels', { data: { name: otherName }, headers });

    await page.reload();
    const channels = page.getByRole('button', { name: 'Channels' });
    await channels.click();
    const menu = page.getByRole('menu', { name: 'Channels' });
    const mine = menu
      .getByRole('group', { name: 'Created by You' })
      .getByRole('menuitem', { name });
    await expect(mine).toBeVisible();
    await audit(page, 'Channels menu open', found);
    await mine.click();
    await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: /Tap to connect/ })).toBeEnabled();
    await audit(page, 'main screen offline', found);

    await page.getByRole('button', { name: 'Contacts' }).click();
    const contacts = page.getByRole('dialog', { name: 'Contacts' });
    await expect(
      contacts.getByRole('button', { name: `Call ${member.person.name}` }),
    ).toBeVisible();
    await audit(page, 'Contacts menu open', found);
    await close(page, contacts);

    await channels.click();
    await menu.getByRole('menuitem', { name: 'Create New Channel' }).click();
    const create = page.getByRole('dialog', { name: 'Create New Channel' });
    await expect(create).toBeVisible();
    await audit(page, 'Create New Channel dialog', found);
    await close(page, create);

    await channels.click();
    await menu
      .getByRole('group', { name: 'All Channels' })
      .getByRole('menuitem', { name: otherName })
      .click();
    const join = page.getByRole('dialog', { name: `Join ${otherName}?` });
    await expect(join).toBeVisible();
    await audit(page, 'Join channel dialog', found);
    await close(page, join);

    await page.getByRole('button', { name: 'Add Members' }).click();
    const add = page.getByRole('dialog', { name: 'Add Members to Channel' });
    await expect(add).toBeVisible();
    await audit(page, 'Add Members dialog', found);
    await close(page, add);

    await page.getByRole('button', { name: 'Share' }).click();
    const share = page.getByRole('dialog', { name: `Invite to ${name}` });
    await expect(share.getByLabel('Invite link')).not.toHaveValue('');
    await audit(page, 'Share dialog', found);
    await close(page, share);

    await page.getByRole('button', { name: /Tap to connect/ }).click();
    await expect(page.getByText('Voice Ready', { exact: true })).toBeVisible({ timeout: 20_000 });
    await audit(page, 'main screen online', found);

    expect(found).toEqual([]);
    await owner.context.close();
    await member.context.close();
  });

  test(`no serious accessibility problems in Settings, Upgrade and the call screens, ${size}`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(process.env.AXE_TIMING ? 600_000 : 240_000);
    const found: string[] = [];
    const { owner, member, name } = await ownerWithMember(browser, baseURL!, size, viewport);
    const page = owner.page;

    // Settings is in sections: each is audited as the superadmin sees it.
    for (const section of ['You', 'Voice and devices', 'Notifications', 'Server', 'Channels']) {
      await page.goto('/settings');
      await page.getByRole('tab', { name: section }).click();
      await expect(page.getByRole('tab', { name: section })).toHaveAttribute('aria-selected', 'true');
      await audit(page, `Settings as superadmin: ${section}`, found);
    }
    await page.getByRole('button', { name: `Delete ${name}` }).click();
    const remove = page.getByRole('alertdialog', { name: `Delete ${name}?` });
    await expect(remove).toBeVisible();
    await audit(page, 'Delete channel dialog', found);
    await close(page, remove);

    await page.goto('/upgrade');
    await expect(page.getByRole('heading', { name: 'Admin' })).toBeVisible();
    await audit(page, 'upgrade', found);

    // The call screens, on the receiving side: ringing, in the call, minimized.
    await page.goto('/');
    const call = page.getByRole('button', { name: `Call ${member.person.name}` });
    const incoming = member.page.getByTestId('incoming-call');
    // Placing a call needs the socket open (spec §5): try until the member rings.
    await expect(async () => {
      if (!(await call.isVisible())) await page.getByRole('button', { name: 'Contacts' }).click();
      await call.click({ timeout: 3000 });
      await expect(incoming).toBeVisible({ timeout: 3000 });
    }).toPass({ timeout: 30_000 });
    await audit(member.page, 'incoming call', found);
    await member.page.getByRole('button', { name: 'Accept call' }).click();
    await expect(member.page.getByTestId('active-call')).toBeVisible();
    await audit(member.page, 'active call', found);
    await member.page.getByRole('button', { name: 'Minimize call' }).click();
    await expect(member.page.getByText('On call')).toBeVisible();
    await audit(member.page, 'minimized call', found);
    await member.page.getByRole('button', { name: 'End call' }).click();

    expect(found).toEqual([]);
    await owner.context.close();
    await member.context.close();
  });
}
