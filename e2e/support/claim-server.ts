import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Person } from './accounts';

/**
 * The owner signs in through the real provider and claims the fresh server with the one-time setup
 * code it wrote to its data folder — as a real owner does — and must come out superadmin.
 */
export async function claimServer(baseURL: string, dataDir: string, owner: Person): Promise<void> {
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
  const form = new URLSearchParams({
    name: owner.name,
    email: owner.email,
    password: owner.password,
  });
  response = await send(url, {
    method: 'POST',
    body: form,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: new URL(baseURL).origin,
    },
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
  if (claimed.status !== 200) throw new Error(`claiming the server failed (${claimed.status})`);
  const me = await send(new URL('/api/auth/user', baseURL).href);
  const user = (await me.json()) as { subscriptionTier?: string };
  if (user.subscriptionTier !== 'superadmin') {
    throw new Error(`the owner should be superadmin, got ${JSON.stringify(user)}`);
  }
}
