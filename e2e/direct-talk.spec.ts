import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { newPerson } from './support/accounts';
import { seriousViolations } from './support/axe';
import { expect, test, type SignedInUser } from './support/fixtures';
import { installOutputProbe, watchOutput } from './support/output-probe';
import { AUDIBLE, channelWith, goOnline, holdToTalkTimes, open, userId, voiceReady } from './support/voice-audio';

/**
 * Direct walkie-talkie with a contact, in Chromium with real audio (on the built-in SFU, and on
 * LiveKit in the `livekit` project, which runs the tests tagged @livekit): Ava talks to Ben twice
 * while his Chirp is closed; when he comes back his Contacts show "2 missed" on Ava, and in their
 * conversation he plays both and hears her voice (the tests' 440 Hz microphone). A person Ben blocked
 * cannot start one, and is told so.
 */
test.describe.configure({ timeout: 150_000 });

const VOICE = { hz: 440, seconds: 0.25 };
/** Unique names: the Contacts list shows every user, and parallel tests add many. */
const someone = (first: string) => newPerson(first, `D${randomBytes(3).toString('hex')}`);

const contactsPanel = (page: Page) => page.getByRole('dialog', { name: 'Contacts' });
const contactRow = (page: Page, name: string) =>
  contactsPanel(page).getByRole('listitem').filter({ hasText: name });

async function addContact(from: SignedInUser, to: SignedInUser, baseURL: string): Promise<void> {
  const added = await from.page.request.post('/api/contacts', {
    data: { email: to.person.email },
    headers: { origin: baseURL },
  });
  expect(added.ok()).toBe(true);
}

test('Ben, away while Ava talks to him twice, comes back to "2 missed" and hears both @livekit', async ({
  browser,
  baseURL,
}, testInfo) => {
  const avaPerson = someone('Ava');
  const benPerson = someone('Ben');
  const ava = await open(browser, avaPerson, 'tone');
  let ben = await open(browser, benPerson, 'tone');
  await addContact(ava, ben, baseURL!);
  await addContact(ben, ava, baseURL!);
  // Ben's Chirp is closed: nothing of his is listening.
  await ben.context.close();

  // Ava opens Talk on Ben from her Contacts, from the keyboard.
  await ava.page.getByRole('button', { name: 'Contacts' }).click();
  const talk = contactRow(ava.page, benPerson.name).getByRole('button', {
    name: `Talk with ${benPerson.name}`,
  });
  await talk.focus();
  await ava.page.keyboard.press('Enter');
  await expect(contactsPanel(ava.page)).toBeHidden();
  const bar = ava.page.getByTestId('conversation-bar');
  await expect(bar.getByRole('heading', { name: benPerson.name })).toBeVisible();
  await expect(ava.page.getByText('Walkie-talkie channel')).toBeVisible({ timeout: 10_000 });
  // A conversation is no channel: the Channels menu does not list it.
  await ava.page.getByRole('button', { name: 'Channels' }).click();
  const channelsMenu = ava.page.getByRole('menu', { name: 'Channels' });
  await expect(channelsMenu).toBeVisible();
  await expect(channelsMenu).not.toContainText(benPerson.name);
  await expect(channelsMenu).not.toContainText('Direct conversation');
  await ava.page.keyboard.press('Escape');

  await goOnline(ava.page);
  await expect(voiceReady(ava.page)).toBeVisible({ timeout: 20_000 });
  await holdToTalkTimes(ava.page, 2);
  for (const width of [390, 1280]) {
    await ava.page.setViewportSize({ width, height: 900 });
    await ava.page.screenshot({ path: testInfo.outputPath(`conversation-${width}.png`) });
  }
  expect(await seriousViolations(ava.page)).toEqual([]);

  // Ben comes back: his Contacts say what he missed from Ava.
  ben = await open(browser, benPerson, 'tone');
  await ben.context.addInitScript(installOutputProbe);
  await ben.page.reload();
  await ben.page.getByRole('button', { name: 'Contacts' }).click();
  const avaRow = contactRow(ben.page, avaPerson.name);
  await expect(avaRow.getByText('2 missed')).toBeVisible({ timeout: 15_000 });
  for (const width of [390, 1280]) {
    await ben.page.setViewportSize({ width, height: 900 });
    await contactsPanel(ben.page).screenshot({ path: testInfo.outputPath(`contacts-${width}.png`) });
  }
  await avaRow.getByRole('button', { name: `Talk with ${avaPerson.name}` }).click();
  const benBar = ben.page.getByTestId('conversation-bar');
  await expect(benBar.getByRole('heading', { name: avaPerson.name })).toBeVisible();

  const missed = benBar.getByRole('button', { name: '2 missed' });
  await expect(missed).toBeVisible({ timeout: 15_000 });
  await missed.click();
  const dialog = ben.page.getByRole('dialog', { name: 'Transmissions' });
  const items = dialog.getByRole('list', { name: 'Kept transmissions' }).getByRole('listitem');
  await expect(items).toHaveCount(2);
  await dialog.getByRole('button', { name: 'Play all' }).focus();
  await ben.page.keyboard.press('Enter');
  const status = dialog.getByRole('status');
  for (let n = 1; n <= 2; n++) {
    await expect(status).toHaveText(new RegExp(`^Playing ${n} of 2: ${avaPerson.name}`), {
      timeout: 10_000,
    });
    const heard = await watchOutput(ben.page, 600, VOICE);
    const { level } = await heard();
    console.log(`direct transmission ${n} of 2: Ava's 440 Hz at ${level.toFixed(3)}`);
    expect(level).toBeGreaterThan(AUDIBLE);
  }
  await expect(status).toHaveText('', { timeout: 10_000 });
  await ben.page.keyboard.press('Escape');

  // Heard: Ava's row no longer says he missed anything; the way back leaves the conversation.
  await benBar.getByRole('button', { name: 'Back to the channel' }).click();
  await expect(benBar).toBeHidden();
  await ben.page.getByRole('button', { name: 'Contacts' }).click();
  await expect(contactRow(ben.page, avaPerson.name)).toBeVisible();
  await expect(contactRow(ben.page, avaPerson.name).getByText(/missed/)).toBeHidden({
    timeout: 15_000,
  });

  // A link naming the conversation's channel (as a notification's tap does) opens it again.
  const [conversation] = (await (await ben.page.request.get('/api/conversations')).json()) as {
    channel: { id: number };
  }[];
  await ben.page.keyboard.press('Escape');
  await ben.page.goto(`/?channel=${conversation!.channel.id}`);
  await expect(benBar.getByRole('heading', { name: avaPerson.name })).toBeVisible({
    timeout: 15_000,
  });

  for (const person of [ava, ben]) await person.context.close();
});

test('someone blocked cannot start a conversation, and is told why', async ({ browser, baseURL }) => {
  const ava = await open(browser, someone('Ava'), 'tone');
  const ben = await open(browser, someone('Ben'), 'tone');
  await addContact(ava, ben, baseURL!);
  const blocked = await ben.page.request.post(`/api/users/${await userId(ava.page)}/block`, {
    headers: { origin: baseURL! },
  });
  expect(blocked.ok()).toBe(true);

  await ava.page.getByRole('button', { name: 'Contacts' }).click();
  await contactRow(ava.page, ben.person.name)
    .getByRole('button', { name: `Talk with ${ben.person.name}` })
    .click();
  await expect(ava.page.getByText('Could not start the conversation', { exact: true })).toBeVisible();
  await expect(
    ava.page.getByText('This person is not available to talk', { exact: true }),
  ).toBeVisible();
  await expect(ava.page.getByTestId('conversation-bar')).toHaveCount(0);
  const conversations = (await (await ava.page.request.get('/api/conversations')).json()) as unknown[];
  expect(conversations).toEqual([]);

  // Ben, who blocked her, is told how to undo it.
  await ben.page.getByRole('button', { name: 'Contacts' }).click();
  await contactRow(ben.page, ava.person.name)
    .getByRole('button', { name: `Talk with ${ava.person.name}` })
    .click();
  await expect(
    ben.page.getByText('You blocked this person. Unblock them in Settings to talk with them.', {
      exact: true,
    }),
  ).toBeVisible();

  for (const person of [ava, ben]) await person.context.close();
});

test('Talk on a member card opens the conversation with that member, and Back returns to the channel', async ({
  browser,
  baseURL,
}) => {
  const ava = await open(browser, someone('Ava'), 'tone');
  const ben = await open(browser, someone('Ben'), 'tone');
  await channelWith(browser, baseURL!, [ava, ben]);
  const members = ava.page.getByRole('list', { name: 'Members' });
  const benCard = members.getByTestId('member-card').filter({ hasText: ben.person.name });
  // One's own card offers no actions; Ben's card menu offers Talk.
  await expect(
    members.getByRole('button', { name: `Actions for ${ava.person.name}` }),
  ).toHaveCount(0);
  await benCard.getByRole('button', { name: `Actions for ${ben.person.name}` }).click();
  await ava.page.getByRole('menuitem', { name: 'Talk' }).click();
  const bar = ava.page.getByTestId('conversation-bar');
  await expect(bar.getByRole('heading', { name: ben.person.name })).toBeVisible();
  await bar.getByRole('button', { name: 'Back to the channel' }).click();
  await expect(bar).toBeHidden();
  await expect(ava.page.getByRole('heading', { name: /^Voice / })).toBeVisible();
  for (const person of [ava, ben]) await person.context.close();
});
