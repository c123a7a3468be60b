import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { OWNER } from './accounts';

/**
 * Before any test runs, the owner signs in through the real provider and claims each fresh server a
 * project tests (the built-in SFU's, LiveKit's) with the one-time setup code it wrote to its data
 * folder — as a real owner does — so a known account is superadmin however the tests are scheduled.
 * Projects that start their own servers have no baseURL.
 */
export default async function globalSetup(config: FullConfig): Promise<void> {
  const baseURLs = new Set(config.projects.map((project) => project.use.baseURL).filter(Boolean));
  if (baseURLs.size === 0) throw new Error('baseURL missing');
  for (const baseURL of baseURLs) await claimServer(baseURL!, dataDirOf(baseURL!));
}

/** The data folder of the server behind `baseURL`, as playwright.config.ts started it. */
function dataDirOf(baseURL: string): string {
  const livekitDir = process.env.E2E_LK_DIR;
  if (livekitDir && new URL(baseURL).port === process.env.E2E_LK_CHIRP_PORT) return join(livekitDir, 'data');
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('global setup: E2E_DATA_DIR missing');
  return dataDir;
}

async function claimServer(baseURL: string, dataDir: string): Promise<void> {
  const jar = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!.trim(), value.join('=').trim());
    }
    return response;
  };
  let url = new URL('/api/login', baseURL).href;
  let response = await send(url);
  while (response.status >= 300 && response.status < 400) {
    url = new URL(response.headers.get('location')!, url).href;
    response = await send(url);
  }
  const form = new URLSearchParams({ name: OWNER.name, email: OWNER.email, password: OWNER.password });
  response = await send(url, {
    method: 'POST',
    body: form,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(baseURL).origin },
  });
  while (response.status >= 300 && response.status < 400) {
    url = new URL(response.headers.get('location')!, url).href;
    if (new URL(url).pathname === '/') break;
    response = await send(url);
  }
  const code = (await readFile(join(dataDir, 'owner-setup-code'), 'utf8')).trim();
  const claimed = await send(new URL('/api/setup/claim', baseURL).href, {
    method: 'POST',
    body: JSON.stringify({ code }),
    headers: { 'content-type': 'application/json', origin: new URL(baseURL).origin },
  });
  if (claimed.status !== 200) throw new Error(`global setup: claiming the server failed (${claimed.status})`);
  const me = await send(new URL('/api/auth/user', baseURL).href);
  const user = (await me.json()) as { subscriptionTier?: string };
  if (user.subscriptionTier !== 'superadmin') {
    throw new Error(`global setup: the owner should be superadmin, got ${JSON.stringify(user)}`);
  }
}
