import type { FullConfig } from '@playwright/test';
import { OWNER } from './accounts';
import { claimServer } from './claim-server';

/**
 * Before any test runs, the owner claims the fresh shared server (`claimServer`), so a known
 * account is superadmin however the tests are scheduled.
 */
export default async function globalSetup(config: FullConfig): Promise<void> {
  const baseURL = config.projects[0]?.use.baseURL;
  if (!baseURL) throw new Error('baseURL missing');
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('global setup: E2E_DATA_DIR missing');
  await claimServer(baseURL, dataDir, OWNER);
}
