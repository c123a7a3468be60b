import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { OWNER } from './accounts';
import { claimServer } from './claim-server';

/**
 * Before any test runs, the owner claims each fresh server a project tests (the built-in SFU's,
 * LiveKit's) with the one-time setup code it wrote to its data folder (`claimServer`), so a known
 * account is superadmin however the tests are scheduled. Projects that start their own servers have
 * no baseURL.
 */
export default async function globalSetup(config: FullConfig): Promise<void> {
  const baseURLs = new Set(config.projects.map((project) => project.use.baseURL).filter(Boolean));
  if (baseURLs.size === 0) throw new Error('baseURL missing');
  for (const baseURL of baseURLs) await claimServer(baseURL!, dataDirOf(baseURL!), OWNER);
}

/** The data folder of the server behind `baseURL`, as playwright.config.ts started it. */
function dataDirOf(baseURL: string): string {
  const livekitDir = process.env.E2E_LK_DIR;
  if (livekitDir && new URL(baseURL).port === process.env.E2E_LK_CHIRP_PORT) return join(livekitDir, 'data');
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('global setup: E2E_DATA_DIR missing');
  return dataDir;
}
