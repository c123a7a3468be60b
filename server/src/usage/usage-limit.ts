import type { AppContext } from '../app-context.js';
import { mayConnect } from './usage-figures.js';
import { usageOf } from './usage-store.js';

/**
 * Whether the user may open a metered voice connection now. Without billing (BILLING=off) minutes
 * are still recorded, but nobody is ever held back by them.
 */
export async function withinUsageLimit(ctx: AppContext, userId: string): Promise<boolean> {
  if (!ctx.config.billing) return true;
  return mayConnect(await usageOf(ctx.database.db, userId));
}
