import type { Browser, Locator, Page } from '@playwright/test';
import { OWNER, newPerson } from './accounts';
import { expect, openAs, type SignedInUser } from './fixtures';

/** The member card of `name` as another member sees it on the main screen. */
export const cardOf = (page: Page, name: string): Locator => page.getByTestId('member-card').filter({ hasText: name });

export async function userIdOf(page: Page): Promise<string> {
  const me = (await (await page.request.get('/api/auth/user')).json()) as { id: string };
  return me.id;
}

/**
 * The owner makes a channel and adds two new people through the API (POSTs need the same-origin
 * Origin); they then reload, and as free users land in their only channel.
 */
export async function twoMembersInOneChannel(
  browser: Browser,
  baseURL: string,
): Promise<{ a: SignedInUser; b: SignedInUser; channelId: number }> {
  const owner = await openAs(browser, OWNER);
  const a = await openAs(browser, newPerson('Ava'));
  const b = await openAs(browser, newPerson('Ben'));
  const headers = { origin: baseURL };
  const created = await owner.page.request.post('/api/channels', { data: { name: `Room ${Date.now()}` }, headers });
  expect(created.ok()).toBe(true);
  const { id: channelId } = (await created.json()) as { id: number };
  for (const user of [a, b]) {
    const added = await owner.page.request.post(`/api/channels/${channelId}/members`, {
      data: { userId: await userIdOf(user.page) },
      headers,
    });
    expect(added.ok()).toBe(true);
  }
  await owner.context.close();
  for (const user of [a, b]) {
    await user.page.reload();
    await expect(user.page.getByRole('button', { name: /Tap to connect/ })).toBeEnabled();
  }
  return { a, b, channelId };
}
