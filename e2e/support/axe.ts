import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Waits until no colour transition or finite animation is mid-way. A theme switch starts the
 * cards' colour transitions on the next style read, and on a loaded machine that read can be
 * axe's own: it then measured the old theme's text on the new theme's background.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== 'running' ||
            animation.effect?.getTiming().iterations === Infinity,
        ),
    undefined,
    { timeout: 5_000 },
  );
}

/**
 * Serious and critical axe findings on what the page shows now, one line each. `within`: only
 * that part (a CSS selector), for a screen that lasts seconds (a countdown): the whole page can take
 * longer than that to check on a loaded machine.
 */
export async function seriousViolations(
  page: Page,
  options: { within?: string } = {},
): Promise<string[]> {
  await settled(page);
  const builder = new AxeBuilder({ page });
  if (options.within) builder.include(options.within);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
