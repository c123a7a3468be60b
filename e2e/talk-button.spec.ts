import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { newPerson } from './support/accounts';
import { seriousViolations } from './support/axe';
import { expect, test, type SignedInUser } from './support/fixtures';
import {
  channelWith,
  channelWithAdmin,
  floorStatus,
  goOnline,
  open,
  voiceReady,
} from './support/voice-audio';

/**
 * The talk button of walkie-talkie channels (decision 043), in two real browsers on the built-in
 * SFU: a separate hold-to-talk control beside the ONLINE switch, so a short tap never takes anyone
 * offline; live with a countdown while held; busy with who is talking on the other screen, where a
 * press is refused and shakes the button. And the big button's reason while a call is on.
 */
test.describe.configure({ timeout: 150_000 });

/** Unique names: the Contacts list shows every user, and parallel tests add many. */
const someone = (first: string) => newPerson(first, `T${randomBytes(3).toString('hex')}`);

/** Screenshots of the talk button's states, looked at by people reviewing the design. */
const SHOTS = process.env.TALK_SHOTS_DIR;
async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.screenshot({ path: `${SHOTS}/talk-${name}-${width}.png` });
  }
}

const onlineSwitch = (page: Page) => page.getByRole('button', { name: /Tap to (dis)?connect/ });
/** The talk button, whichever state it is in: "Hold to talk", "Live" or "Busy". */
const talkButton = (page: Page) =>
  page
    .getByRole('region', { name: 'Voice' })
    .getByRole('button', { name: /Hold to talk|Live|Busy/ });

async function hold(page: Page, button: Locator): Promise<void> {
  await button.hover();
  await page.mouse.down();
}

test('walkie-talkie: A holds the talk button and is live; B sees who is talking and a press there is refused; a tap never takes A offline', async ({
  browser,
  baseURL,
}) => {
  const a = await open(browser, someone('Ava'), 'tone');
  const b = await open(browser, someone('Ben'), 'tone');
  const { id, owner } = await channelWithAdmin(browser, baseURL!, [a, b]);
  const made = await owner.page.request.put(`/api/channels/${id}/talk-mode`, {
    data: { talkMode: 'walkie', maxTransmissionSeconds: 60 },
    headers: { origin: baseURL! },
  });
  expect(made.ok()).toBe(true);
  await owner.context.close();

  for (const person of [a, b]) {
    const { page } = person;
    await expect(page.getByText('Walkie-talkie channel')).toBeVisible({ timeout: 10_000 });
    // OFFLINE: the switch connects; the talk button waits and says why.
    await expect(onlineSwitch(page)).toHaveText(/OFFLINE\s*Tap to connect/);
    const talk = page.getByRole('button', { name: /Hold to talk/ });
    await expect(talk).toBeDisabled();
    await expect(talk).toHaveAccessibleDescription('Go online to talk');
    await goOnline(page);
    await expect(voiceReady(page)).toBeVisible({ timeout: 20_000 });
    await expect(onlineSwitch(page)).toHaveText(/ONLINE\s*Tap to disconnect/);
    await expect(talk).toBeEnabled();
  }
  await shoot(a.page, 'ready');

  // A short tap on the talk button is a (too) short transmission, never a way offline.
  const aTalk = talkButton(a.page);
  await expect(aTalk).toHaveAccessibleName(/Hold to talk/);
  await aTalk.click();
  await a.page.waitForTimeout(500);
  await expect(onlineSwitch(a.page)).toHaveAttribute('aria-pressed', 'true');
  await expect(onlineSwitch(a.page)).toHaveText(/ONLINE\s*Tap to disconnect/);
  // A's next hold waits the short pause after the last one (decision 023).
  await a.page.waitForTimeout(1_200);

  // A holds the talk button: live, with the maximum counting down.
  await hold(a.page, aTalk);
  await expect(aTalk).toHaveAccessibleName(/Live/);
  await expect(aTalk).toHaveAttribute('aria-pressed', 'true');
  await expect(floorStatus(a.page)).toHaveText('You are live');
  const timer = a.page.getByRole('timer');
  await expect(timer).toHaveText(/^(60|59|58|57|56|55) seconds left$/);
  const first = await timer.textContent();
  await expect(timer).not.toHaveText(first!, { timeout: 3_000 });

  // B sees who is talking on the talk button itself.
  const bTalk = talkButton(b.page);
  await expect(bTalk).toHaveAccessibleName('Busy');
  await expect(b.page.getByText(`${a.person.name} is talking`, { exact: true })).toBeVisible();
  await expect(bTalk).toHaveAccessibleDescription(`${a.person.name} is talking`);
  await shoot(a.page, 'live');
  await shoot(b.page, 'busy');
  expect(await seriousViolations(b.page)).toEqual([]);

  // B presses while A is live: refused (the busy tone), and the button shakes and says so.
  await hold(b.page, bTalk);
  await expect(bTalk).toHaveAttribute('data-shaking', 'true');
  await expect(bTalk).toHaveAttribute('data-state', 'refused');
  await shoot(b.page, 'refused');
  await expect(bTalk).toHaveAccessibleName('Busy');
  await expect(b.page.getByText(`${a.person.name} is talking`, { exact: true })).toBeVisible();
  await b.page.mouse.up();
  await expect(bTalk).not.toHaveAttribute('data-shaking', 'true');
  await expect(aTalk).toHaveAccessibleName(/Live/);

  // A lets go: the floor is clear on both screens, and A is still ONLINE.
  await a.page.mouse.up();
  await expect(aTalk).toHaveAccessibleName(/Hold to talk/);
  await expect(bTalk).toHaveAccessibleName(/Hold to talk/, { timeout: 5_000 });
  await expect(a.page.getByRole('timer')).toHaveCount(0);
  await expect(onlineSwitch(a.page)).toHaveAttribute('aria-pressed', 'true');

  // From the keyboard: Enter held on the focused talk button talks, and letting go stops.
  await b.page.waitForTimeout(1_200);
  await bTalk.focus();
  await b.page.keyboard.down('Enter');
  await expect(bTalk).toHaveAccessibleName(/Live/);
  await expect(aTalk).toHaveAccessibleName('Busy');
  await expect(a.page.getByText(`${b.person.name} is talking`, { exact: true })).toBeVisible();
  await b.page.keyboard.up('Enter');
  await expect(bTalk).toHaveAccessibleName(/Hold to talk/);
  await expect(onlineSwitch(b.page)).toHaveAttribute('aria-pressed', 'true');

  for (const person of [a, b]) await person.context.close();
});

test('during a one-to-one call the big button says why it cannot connect', async ({
  browser,
  baseURL,
}) => {
  const a = await open(browser, someone('Ava'), 'tone');
  const b = await open(browser, someone('Ben'), 'tone');
  await channelWith(browser, baseURL!, [a, b]);
  const call = a.page.getByRole('button', { name: `Call ${b.person.name}` });
  await expect(async () => {
    if (!(await call.isVisible())) await a.page.getByRole('button', { name: 'Contacts' }).click();
    await call.click({ timeout: 5_000 });
    await expect(a.page.getByTestId('active-call')).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 45_000 });
  await b.page.getByRole('button', { name: 'Accept call' }).click();
  await expect(a.page.getByText('Connected', { exact: true })).toBeVisible({ timeout: 20_000 });
  await a.page.getByRole('button', { name: 'Minimize call' }).click();

  const big = a.page.getByRole('button', { name: /Tap to connect/ });
  await expect(big).toBeDisabled();
  await expect(big).toHaveAccessibleDescription(/^In a call — the channel waits until it ends/);
  await expect(a.page.getByText('In a call — the channel waits until it ends')).toBeVisible();
  await shoot(a.page, 'in-call');

  await a.page.getByTestId('minimized-call').getByRole('button', { name: 'End call' }).click();
  await expect(big).toBeEnabled({ timeout: 10_000 });
  await expect(a.page.getByText('In a call — the channel waits until it ends')).toBeHidden();

  for (const person of [a, b] as SignedInUser[]) await person.context.close();
});
