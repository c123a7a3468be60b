import type { FullConfig } from '@playwright/test';
import { OWNER } from './accounts';

/**
 * Signs the owner in once through the real provider before any test runs, on every server a project
 * tests (the built-in SFU's, LiveKit's), so "the first user is superadmin" holds for a known account
 * however the tests are scheduled. Projects that start their own servers have no baseURL.
 */
export default async function globalSetup(config: FullConfig): Promise<void> {
  const baseURLs = new Set(config.projects.map((project) => project.use.baseURL).filter(Boolean));
  if (baseURLs.size === 0) throw new Error('baseURL missing');
  for (const baseURL of baseURLs) await signInOwner(baseURL!);
}

async function signInOwner(baseURL: string): Promise<void> {
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
  const me = await send(new URL('/api/auth/user', baseURL).href);
  const user = (await me.json()) as { subscriptionTier?: string };
  if (user.subscriptionTier !== 'superadmin') {
    throw new Error(`global setup: the owner should be superadmin, got ${JSON.stringify(user)}`);
  }
}
