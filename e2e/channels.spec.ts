import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { OWNER, newPerson, type Person } from './support/accounts';
import { seriousViolations } from './support/axe';
import { userIdOf } from './support/channel-setup';
import { expect, openAs, test } from './support/fixtures';

/** A per-run suffix, so channel and person names never collide with other tests in the same server. */
const tag = () => randomBytes(3).toString('hex');

/** A person whose display name is unique ("Bea T1a2b3c"), for finding their row by name. */
const uniquePerson = (first: string): Person => newPerson(first, `T${tag()}`);

async function myId(page: Page): Promise<string> {
  const me = (await (await page.request.get('/api/auth/user')).json()) as { id: string };
  return me.id;
}

async function openChannelsMenu(page: Page) {
  await page.getByRole('button', { name: 'Channels' }).click();
  return page.getByRole('menu');
}

/** Channels > Create New Channel, as an admin; resolves with the new channel's id. */
async function createChannel(page: Page, name: string): Promise<number> {
  const menu = await openChannelsMenu(page);
  await menu.getByRole('menuitem', { name: 'Create New Channel' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Channel' });
  const created = page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/channels') && response.request().method() === 'POST',
  );
  await dialog.getByLabel('Channel name').fill(`  ${name}  `);
  await dialog.getByRole('button', { name: 'Create Channel' }).click();
  const response = await created;
  expect(response.status()).toBe(201);
  await expect(dialog).toBeHidden();
  // The new channel becomes the current one.
  await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
  return ((await response.json()) as { id: number; name: string }).id;
}

async function selectChannel(page: Page, name: string): Promise<void> {
  const menu = await openChannelsMenu(page);
  await menu.getByRole('menuitem', { name }).first().click();
  await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
}

const TIER_OPTIONS = { free: 'Free', member: 'Member', admin: 'Admin' } as const;

/** Superadmin: Settings > Server > User Management, set a person's tier. */
async function setTier(owner: Page, person: Person, tier: 'free' | 'member' | 'admin') {
  await owner.goto('/settings?section=server');
  const changed = owner.waitForResponse((response) => response.url().endsWith('/subscription'));
  await owner.getByRole('combobox', { name: `Tier for ${person.name}` }).click();
  await owner.getByRole('option', { name: TIER_OPTIONS[tier], exact: true }).click();
  expect((await changed).status()).toBe(200);
}

test('admins run channels: create, add, mute; blocks and invite links work', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const family = `Family ${tag()}`;
  const work = `Work ${tag()}`;
  const owner = await openAs(browser, OWNER);
  const b = await openAs(browser, uniquePerson('Bea'));
  const c = await openAs(browser, uniquePerson('Cal'));
  const cId = await myId(c.page);

  // The superadmin promotes B to admin in Settings > User Management.
  await setTier(owner.page, b.person, 'admin');
  await b.page.reload();

  // B (admin, no default channel) is asked to pick one, then creates "Family".
  await expect(b.page.getByText('Please select a channel to start')).toBeVisible();
  const menu = await openChannelsMenu(b.page);
  await menu.getByRole('menuitem', { name: 'Create New Channel' }).click();
  const dialog = b.page.getByRole('dialog', { name: 'Create New Channel' });
  const submit = dialog.getByRole('button', { name: 'Create Channel' });
  await expect(submit).toBeDisabled();
  await dialog.getByLabel('Channel name').fill('   ');
  await dialog.getByLabel('Channel name').blur();
  await expect(dialog.getByText('Channel name cannot be empty')).toBeVisible();
  await expect(submit).toBeDisabled();
  await b.page.keyboard.press('Escape');
  const familyId = await createChannel(b.page, family);
  const familyMembers = await b.page.request.get(`/api/channels/${familyId}/members`);
  expect(((await familyMembers.json()) as { name: string }[]).map((m) => m.name)).toEqual([
    b.person.name,
  ]);

  // B adds C from Add Members.
  await b.page.getByRole('button', { name: 'Add Members' }).click();
  const addDialog = b.page.getByRole('dialog', { name: 'Add Members to Channel' });
  await addDialog.getByRole('button', { name: `Add ${c.person.name}` }).click();
  await expect(addDialog.getByRole('button', { name: `Add ${c.person.name}` })).toBeHidden();
  await b.page.keyboard.press('Escape');
  const members = b.page.getByRole('list', { name: 'Members' });
  await expect(members.getByText(c.person.name)).toBeVisible();
  await expect(b.page.getByText('2 members')).toBeVisible();
  // Admins find Remove in the other members' card menus (decision 044); their own card has none.
  await members.getByRole('button', { name: `Actions for ${c.person.name}` }).click();
  await expect(b.page.getByRole('menuitem', { name: 'Remove…' })).toBeVisible();
  await b.page.keyboard.press('Escape');
  await expect(members.getByRole('button', { name: `Actions for ${b.person.name}` })).toHaveCount(
    0,
  );

  // C sees the channel under Member Of (polled every 5 s) and lands in it as a non-admin.
  const cMenu = await openChannelsMenu(c.page);
  const memberOf = cMenu.getByRole('group', { name: 'Member Of' });
  await expect(memberOf.getByRole('menuitem', { name: family })).toBeVisible();
  await c.page.keyboard.press('Escape');
  await expect(c.page.getByRole('heading', { name: family, exact: true })).toBeVisible();
  await expect(c.page.getByRole('button', { name: 'Mute Self' })).toBeDisabled();
  await expect(c.page.getByRole('button', { name: 'Add Members' })).toHaveCount(0);

  // B mutes C in Settings > Member Management: the Muted tag shows and the server lists C.
  await b.page.getByRole('button', { name: 'Settings' }).click();
  await b.page.getByRole('tab', { name: 'Channels' }).click(); // Settings is in sections
  const management = b.page.locator('#member-management');
  await expect(management.getByRole('combobox', { name: 'Channel' })).toHaveText(family);
  await management.getByRole('button', { name: `Mute ${c.person.name}` }).click();
  await expect(management.getByRole('button', { name: `Unmute ${c.person.name}` })).toBeVisible();
  await expect(management.getByText('Muted', { exact: true })).toBeVisible();
  const muted = await b.page.request.get(`/api/muted-users/${familyId}`);
  expect(((await muted.json()) as { mutedUsers: string[] }).mutedUsers).toEqual([cId]);
  // Poke answers with the server's message, and a second poke within 10 s is refused politely.
  await management.getByRole('button', { name: `Poke ${c.person.name}` }).click();
  await expect(b.page.getByText('Poke sent', { exact: true })).toBeVisible();
  await management.getByRole('button', { name: `Poke ${c.person.name}` }).click();
  await expect(b.page.getByText('Please wait before poking again', { exact: true })).toBeVisible();
  await b.page.getByRole('button', { name: 'Back' }).click();
  await expect(
    b.page.getByRole('list', { name: 'Members' }).getByText('Muted', { exact: true }),
  ).toBeVisible();

  // C blocks B in Settings > Blocked Users.
  await c.page.getByRole('button', { name: 'Settings' }).click();
  await c.page.getByRole('combobox', { name: 'Block a user' }).click();
  await c.page.getByRole('option', { name: b.person.name }).click();
  await c.page.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(c.page.getByRole('button', { name: `Unblock ${b.person.name}` })).toBeVisible();

  // B's attempt to add C to another channel is refused with a toast.
  await createChannel(b.page, work);
  await b.page.getByRole('button', { name: 'Add Members' }).click();
  const refused = b.page.waitForResponse(
    (response) => response.url().endsWith('/members') && response.request().method() === 'POST',
  );
  await b.page
    .getByRole('dialog', { name: 'Add Members to Channel' })
    .getByRole('button', { name: `Add ${c.person.name}` })
    .click();
  expect((await refused).status()).toBe(403);
  await expect(b.page.getByText('Failed to add member', { exact: true })).toBeVisible();
  await b.page
    .getByRole('dialog', { name: 'Add Members to Channel' })
    .getByRole('button', { name: 'Close' })
    .click();

  // An invite link from Share, opened by a new user D who is signed out, makes D a member.
  await selectChannel(b.page, family);
  await b.page.getByRole('button', { name: 'Share' }).click();
  const share = b.page.getByRole('dialog');
  await expect(share.getByRole('button', { name: 'Copy Link' })).toBeEnabled();
  const inviteUrl = await share.getByLabel('Invite link').inputValue();
  expect(inviteUrl).toMatch(new RegExp(`\\?channel=${familyId}&invite=`));
  await share.getByRole('button', { name: 'Close' }).click();

  const d = newPerson('Dee', `T${tag()}`);
  const dContext = await browser.newContext();
  const dPage = await dContext.newPage();
  await dPage.goto(inviteUrl);
  await dPage.getByRole('button', { name: 'Continue to Sign In' }).click();
  await dPage.getByLabel('Name').fill(d.name);
  await dPage.getByLabel('Email').fill(d.email);
  await dPage.getByLabel('Password').fill(d.password);
  await dPage.getByRole('button', { name: 'Sign in' }).click();
  await expect(dPage.getByText('Connected to channel', { exact: true })).toBeVisible();
  // D is in the channel but not hearing it yet: the toast says so rather than "connected" alone.
  await expect(
    dPage.getByText(`You are in ${family}, offline. Go online to listen and talk.`, {
      exact: true,
    }),
  ).toBeVisible();
  await expect(dPage.getByRole('button', { name: /Tap to connect/ })).toBeVisible();
  // No contact picker in desktop Chromium: no Invite button that could only say "Not supported".
  await expect(dPage.getByRole('button', { name: 'Invite', exact: true })).toHaveCount(0);
  await expect(dPage.getByRole('heading', { name: family, exact: true })).toBeVisible();
  await expect(dPage).toHaveURL(/\/$/);
  expect(await dPage.evaluate(() => sessionStorage.getItem('invitedChannelId'))).toBeNull();
  await expect(
    b.page.getByRole('list', { name: 'Members' }).getByText(d.name, { exact: true }),
  ).toBeVisible();

  for (const context of [owner.context, b.context, c.context, dContext]) await context.close();
});

test('a free user never sees Create New Channel and cannot create one', async ({ browser }) => {
  const free = await openAs(browser, uniquePerson('Fay'));
  const menu = await openChannelsMenu(free.page);
  await expect(menu.getByText('No channels available')).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Create New Channel' })).toHaveCount(0);
  await free.page.keyboard.press('Escape');
  await expect(
    free.page.getByRole('heading', { name: 'You are not in a channel yet' }),
  ).toBeVisible();
  await free.page.screenshot({ path: '/tmp/chirp-main-free-1280x800.png' });

  // The same request the app would send, from the page (same origin, with the session cookie).
  const answer = await free.page.evaluate(async () => {
    const response = await fetch('/api/channels', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Sneaky' }),
    });
    return { status: response.status, body: (await response.json()) as { error?: string } };
  });
  expect(answer.status).toBe(403);
  expect(answer.body.error).toBeTruthy();

  // Settings offers an upgrade instead of the create form.
  await free.page.getByRole('button', { name: 'Settings' }).click();
  await expect(free.page.getByRole('heading', { name: 'Free Tier' })).toBeVisible();
  await free.page.getByRole('tab', { name: 'Channels' }).click(); // Settings is in sections
  await expect(free.page.getByRole('button', { name: 'Upgrade to create channels' })).toBeVisible();
  await expect(free.page.getByLabel('Channel name')).toHaveCount(0);
  await free.context.close();
});

test('without a channel Share is disabled and its tooltip says why; no contact-picker buttons on a desktop', async ({
  browser,
}, testInfo) => {
  const free = await openAs(browser, uniquePerson('Noa'));
  const page = free.page;
  const share = page.getByRole('button', { name: 'Share' });
  const reason = 'Select a channel to share its invite link';
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expect(page.getByRole('heading', { name: 'You are not in a channel yet' })).toBeVisible();
    await expect(share).toBeDisabled();
    await expect(share).toHaveAccessibleDescription(reason);
    // A press does nothing: no dialog, and no error toast.
    await share.click({ force: true });
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByText('No channel selected')).toHaveCount(0);
    // Hovering shows the reason after the spec's delay; axe finds nothing serious with it open.
    // The tooltip's code loads just after the screen: a pointer that came to rest on Share before
    // it had loaded opens nothing until it moves again, as a user's hand would.
    await expect(async () => {
      await page.mouse.move(0, 0);
      await share.hover();
      await expect(page.getByRole('tooltip')).toHaveText(reason, { timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`share-no-channel-${width}x${height}.png`) });
    await page.mouse.move(width / 2, height - 10);
    await page.mouse.move(width / 2, height - 20);
    await expect(page.getByRole('tooltip')).toHaveCount(0);
  }

  // Keyboard focus shows the top bar's tooltips too.
  await page.keyboard.press('Tab');
  await page.getByRole('button', { name: 'Settings' }).focus();
  await expect(page.getByRole('tooltip')).toHaveText('Your account, devices and server settings');

  // Desktop Chromium has no contact picker: Contacts offers no Import that could only fail.
  await page.getByRole('button', { name: 'Contacts' }).click();
  const contacts = page.getByRole('dialog', { name: 'Contacts' });
  await expect(contacts.getByRole('heading', { name: 'Contacts' })).toBeVisible();
  await expect(contacts.getByRole('button', { name: 'Import' })).toHaveCount(0);
  await free.context.close();
});

test('Share: Copy Link shows Copied! and the member count updates', async ({ browser }) => {
  const admin = await openAs(browser, uniquePerson('Ada'));
  const owner = await openAs(browser, OWNER);
  await setTier(owner.page, admin.person, 'admin');
  await owner.context.close();
  await admin.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await admin.page.reload();
  await createChannel(admin.page, `Team ${tag()}`);
  await admin.page.getByRole('button', { name: 'Share' }).click();
  const share = admin.page.getByRole('dialog');
  await share.getByRole('button', { name: 'Copy Link' }).click();
  await expect(share.getByRole('button', { name: 'Copied!' })).toBeVisible();
  const copied = await admin.page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await share.getByLabel('Invite link').inputValue());
  // Back to "Copy Link" after 2 seconds.
  await expect(share.getByRole('button', { name: 'Copy Link' })).toBeVisible({ timeout: 4000 });
  await admin.context.close();
});

// Axe on these screens, menus and dialogs, in both themes and sizes: e2e/accessibility.spec.ts.
test('main and settings look finished on phone and desktop', async ({ browser }) => {
  test.setTimeout(120_000);
  const admin = await openAs(browser, uniquePerson('Axe'));
  const owner = await openAs(browser, OWNER);
  const other = await openAs(browser, uniquePerson('Mo'));
  await setTier(owner.page, admin.person, 'admin');
  await admin.page.reload();
  const channel = `Family ${tag()}`;
  await createChannel(admin.page, channel);
  await admin.page.getByRole('button', { name: 'Add Members' }).click();
  await admin.page.getByRole('button', { name: `Add ${other.person.name}` }).click();
  await admin.page.keyboard.press('Escape');
  await expect(admin.page.getByText('2 members')).toBeVisible();

  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      await admin.page.setViewportSize({ width, height });
      await admin.page.emulateMedia({ colorScheme: scheme });
      await expect(admin.page.getByRole('heading', { name: channel, exact: true })).toBeVisible();
      await admin.page.screenshot({ path: `/tmp/chirp-main-${width}x${height}-${scheme}.png` });

      await admin.page.getByRole('button', { name: 'Settings' }).click();
      await expect(admin.page.getByRole('heading', { name: 'Admin Subscription' })).toBeVisible();
      await admin.page.getByRole('tab', { name: 'Channels' }).click(); // Settings is in sections
      await expect(
        admin.page.getByRole('button', { name: `Poke ${other.person.name}` }),
      ).toBeVisible();
      await admin.page.screenshot({
        path: `/tmp/chirp-settings-${width}x${height}-${scheme}.png`,
        fullPage: true,
      });
      await admin.page.getByRole('button', { name: 'Back' }).click();
    }
  }

  // Popups on a phone: Contacts, Add Members, Share.
  await admin.page.setViewportSize({ width: 390, height: 844 });
  await admin.page.emulateMedia({ colorScheme: 'light' });
  await admin.page.getByRole('button', { name: 'Contacts' }).click();
  await expect(admin.page.getByRole('button', { name: `Call ${other.person.name}` })).toBeVisible();
  await admin.page.screenshot({ path: '/tmp/chirp-contacts-390x844.png' });
  await admin.page.keyboard.press('Escape');
  await admin.page.getByRole('button', { name: 'Add Members' }).click();
  await expect(admin.page.getByRole('dialog', { name: 'Add Members to Channel' })).toBeVisible();
  await admin.page.screenshot({ path: '/tmp/chirp-add-members-390x844.png' });
  await admin.page.keyboard.press('Escape');
  await admin.page.getByRole('button', { name: 'Share' }).click();
  await expect(admin.page.getByRole('button', { name: 'Copy Link' })).toBeEnabled();
  await admin.page.screenshot({ path: '/tmp/chirp-share-390x844.png' });
  await admin.page.keyboard.press('Escape');

  // The superadmin's view: All Channels in the menu, User Management in Settings.
  await owner.page.goto('/');
  await owner.page.getByRole('button', { name: 'Channels' }).click();
  await expect(owner.page.getByText('All Channels')).toBeVisible();
  await owner.page.screenshot({ path: '/tmp/chirp-channels-menu-1280x800.png' });
  await owner.page.keyboard.press('Escape');
  await owner.page.getByRole('button', { name: 'Settings' }).click();
  await owner.page.getByRole('tab', { name: 'Server' }).click(); // Settings is in sections
  await expect(owner.page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  await owner.page.screenshot({ path: '/tmp/chirp-settings-owner-1280x800.png', fullPage: true });
  await owner.page.setViewportSize({ width: 390, height: 844 });
  await owner.page.screenshot({ path: '/tmp/chirp-settings-owner-390x844.png', fullPage: true });
  for (const context of [admin.context, other.context, owner.context]) await context.close();
});

// What a user hit before, seen in the browser.
test('the create-channel dialog says nothing until the name is really blank', async ({
  browser,
}, testInfo) => {
  const owner = await openAs(browser, OWNER);
  await owner.page.getByRole('button', { name: 'Channels' }).click();
  await owner.page.getByRole('menuitem', { name: 'Create New Channel' }).click();
  const dialog = owner.page.getByRole('dialog', { name: 'Create New Channel' });
  await expect(dialog.getByLabel('Channel name')).toBeFocused();
  await dialog.getByLabel('Channel name').blur();
  await expect(dialog.getByText('Channel name cannot be empty')).toHaveCount(0);
  await owner.page.screenshot({ path: testInfo.outputPath('create-channel-untouched.png') });
  await dialog.getByLabel('Channel name').fill('   ');
  await expect(dialog.getByText('Channel name cannot be empty')).toBeVisible();
  await owner.context.close();
});

// What a user hit before, seen in the browser.
test('an admin comes back to the channel they had open; the superadmin is asked before joining and never offered to remove a creator', async ({
  browser,
  baseURL,
}, testInfo) => {
  const headers = { origin: baseURL! };
  const owner = await openAs(browser, OWNER);
  const admin = await openAs(browser, newPerson('Ada', `R${Date.now()}`));
  const guest = await openAs(browser, newPerson('Gus', `R${Date.now()}`));
  const adminId = await userIdOf(admin.page);
  await owner.page.request.post(`/api/users/${adminId}/subscription`, {
    data: { subscriptionTier: 'admin' },
    headers,
  });
  const name = `Remember ${Date.now()}`;
  const created = await admin.page.request.post('/api/channels', { data: { name }, headers });
  const { id } = (await created.json()) as { id: number };
  await admin.page.request.post(`/api/channels/${id}/members`, {
    data: { userId: await userIdOf(guest.page) },
    headers,
  });

  // The admin picks the channel once; after a reload it is open again.
  await admin.page.reload();
  await expect(admin.page.getByText('Please select a channel to start')).toBeVisible();
  await admin.page.getByRole('button', { name: 'Channels' }).click();
  await admin.page
    .getByRole('group', { name: 'Created by You' })
    .getByRole('menuitem', { name })
    .click();
  await expect(admin.page.getByRole('heading', { name, exact: true })).toBeVisible();
  await admin.page.reload();
  await expect(admin.page.getByRole('heading', { name, exact: true })).toBeVisible();
  await expect(admin.page.getByText('Please select a channel to start')).toHaveCount(0);

  // The superadmin picks it under All Channels: a question first, Cancel changes nothing.
  await owner.page.getByRole('button', { name: 'Channels' }).click();
  await owner.page
    .getByRole('group', { name: 'All Channels' })
    .getByRole('menuitem', { name })
    .click();
  const join = owner.page.getByRole('dialog', { name: `Join ${name}?` });
  await expect(join).toBeVisible();
  await owner.page.screenshot({ path: testInfo.outputPath('join-question.png') });
  await join.getByRole('button', { name: 'Cancel' }).click();
  const members = async () =>
    (
      (await (await owner.page.request.get(`/api/channels/${id}/members`)).json()) as {
        id: string;
      }[]
    ).length;
  expect(await members()).toBe(2);
  await owner.page.getByRole('button', { name: 'Channels' }).click();
  await owner.page
    .getByRole('group', { name: 'All Channels' })
    .getByRole('menuitem', { name })
    .click();
  await join.getByRole('button', { name: 'Join Channel' }).click();
  await expect(owner.page.getByRole('heading', { name, exact: true })).toBeVisible();
  expect(await members()).toBe(3);
  const list = owner.page.getByRole('list', { name: 'Members' });
  // The superadmin may remove the guest, never the channel's admin (its creator).
  await list.getByRole('button', { name: `Actions for ${guest.person.name}` }).click();
  await expect(owner.page.getByRole('menuitem', { name: 'Remove…' })).toBeVisible();
  await owner.page.keyboard.press('Escape');
  await list.getByRole('button', { name: `Actions for ${admin.person.name}` }).click();
  await expect(owner.page.getByRole('menuitem', { name: 'Poke' })).toBeVisible();
  await expect(owner.page.getByRole('menuitem', { name: 'Remove…' })).toHaveCount(0);
  await owner.page.keyboard.press('Escape');
  for (const user of [owner, admin, guest]) await user.context.close();
});
