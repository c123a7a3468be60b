import { seriousViolations } from './axe';
import { expect, signIn, test } from './fixtures';

for (const colorScheme of ['light', 'dark'] as const) {
  test(`landing, 404 and upgrade have no serious accessibility problems (${colorScheme})`, async ({
    page,
    person,
  }) => {
    await page.emulateMedia({ colorScheme });
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Continue to Sign In' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto('/no/such/page');
    await expect(page.getByText('404 Page Not Found')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await signIn(page, person.name, person.email);
    await page.goto('/upgrade');
    await expect(page.getByRole('heading', { name: 'Admin' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
}
