import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * Calls `calleeName` from the Contacts menu, as a person would, and waits for the call on screen.
 * A click the menu's opening swallowed is tried again; a call already on screen is never placed a
 * second time (on a loaded machine the first call can take seconds to show, and a second click
 * would ring the callee twice, so the test would answer the wrong call).
 */
export async function placeCall(page: Page, calleeName: string): Promise<void> {
  const callButton = page.getByRole('button', { name: `Call ${calleeName}` });
  const activeCall = page.getByTestId('active-call');
  await expect(async () => {
    if (await activeCall.isVisible()) return;
    if (!(await callButton.isVisible()))
      await page.getByRole('button', { name: 'Contacts' }).click();
    await callButton.click({ timeout: 3000 });
    await expect(activeCall).toBeVisible({ timeout: 8000 });
  }).toPass({ timeout: 30_000 });
}
