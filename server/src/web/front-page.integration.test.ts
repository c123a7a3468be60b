import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

const APP_PAGE = '<!doctype html><html><body><div id="root"></div><script src="/assets/app-1a2b.js"></script></body></html>';

/** A built client as `npm run build` leaves it, small: the page and one hashed script. */
function builtClient(): string {
  const root = mkdtempSync(join(tmpdir(), 'chirp-client-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), APP_PAGE);
  writeFileSync(join(root, 'assets', 'app-1a2b.js'), 'console.log("chirp")');
  return root;
}

/**
 * The front page answers every client that asks for it — a browser, curl (`Accept: *\/*`), an
 * uptime monitor that sends no Accept at all — while the API and missing files stay 404s.
 */
describe('the app page, served to any client', () => {
  let server: TestServer;
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    fetch(`${server.baseUrl}${path}`, { method, headers, redirect: 'manual' });

  beforeAll(async () => {
    server = await startTestServer(await testDatabases()[0]!.open(), {}, { clientRoot: builtClient() });
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('GET / without an Accept header answers the app', async () => {
    // fetch() adds `accept: */*` unless told otherwise; an empty value is what a bare monitor sends.
    const response = await get('/', { accept: '' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toBe(APP_PAGE);
  });

  it('GET / as curl asks (*/*), and HEAD /, answer the app too', async () => {
    const curl = await get('/', { accept: '*/*', 'user-agent': 'curl/8.5.0' });
    expect(curl.status).toBe(200);
    expect(await curl.text()).toContain('<div id="root">');
    const head = await get('/', { accept: '' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('an app route answers the app whatever is accepted; a browser gets it as before', async () => {
    expect((await get('/settings', { accept: 'application/json' })).status).toBe(200);
    const browser = await get('/upgrade?x=1', { accept: 'text/html,application/xhtml+xml' });
    expect(browser.status).toBe(200);
    expect(await browser.text()).toBe(APP_PAGE);
  });

  it('files and the API keep their own answers', async () => {
    const script = await get('/assets/app-1a2b.js', { accept: '' });
    expect(script.status).toBe(200);
    expect(await script.text()).toBe('console.log("chirp")');
    const missing = await get('/assets/app-old.js', { accept: '*/*' });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/json/);
    const api = await get('/api/nothing-here', { accept: '' });
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ message: 'Not found: GET /api/nothing-here' });
    expect((await get('/', { accept: '' }, 'POST')).status).toBe(404);
  });
});
