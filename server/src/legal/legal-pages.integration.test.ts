import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

const page = (server: TestServer, path: string) => fetch(`${server.baseUrl}${path}`, { redirect: 'manual' });

/** Words of the notice's target pages a reader would look for, and that no template placeholder shows. */
describe('the default Terms of Service and Privacy Policy', () => {
  let plain: TestServer, family: TestServer, linked: TestServer;
  beforeAll(async () => {
    plain = await startTestServer(await testDatabases()[0]!.open());
    family = await startTestServer(await testDatabases()[0]!.open(), { BILLING: 'off', TRANSMISSION_RETENTION_HOURS: '48' });
    linked = await startTestServer(await testDatabases()[0]!.open(), {
      TERMS_URL: 'https://family.example/terms',
      PRIVACY_URL: 'https://family.example/privacy',
    });
  });
  afterAll(async () => {
    for (const server of [plain, family, linked]) {
      await server.close();
      await server.database.close();
    }
  });

  it('are pages anyone can read, signed in or not, and the landing links them', async () => {
    const config = (await (await page(plain, '/api/config')).json()) as { termsUrl: string; privacyUrl: string };
    const terms = await page(plain, new URL(config.termsUrl).pathname);
    expect(terms.status).toBe(200);
    expect(terms.headers.get('content-type')).toMatch(/^text\/html/);
    const termsHtml = await terms.text();
    expect(termsHtml).toContain('<h1>Terms of Service</h1>');
    expect(termsHtml).toContain(`the Chirp server at ${new URL(plain.baseUrl).host}`);
    expect(termsHtml).toContain('Never rely on it to call for help in an emergency');
    expect(termsHtml).toContain('Each month includes a free allowance');

    const privacy = await page(plain, new URL(config.privacyUrl).pathname);
    expect(privacy.status).toBe(200);
    const privacyHtml = await privacy.text();
    expect(privacyHtml).toContain('<h1>Privacy Policy</h1>');
    expect(privacyHtml).toContain('argon2id');
    expect(privacyHtml).toContain('the audio of each transmission for 24 hours');
    expect(privacyHtml).toContain('Settings → Delete account');
    for (const html of [termsHtml, privacyHtml]) {
      expect(html).toContain('<a href="/">Back to Chirp</a>');
      expect(html).not.toMatch(/undefined|\$\{|NaN/);
    }
  });

  it('say what this server does: no paid plans, its own retention', async () => {
    const terms = await (await page(family, '/legal/terms')).text();
    expect(terms).toContain('This server has no paid plans');
    expect(terms).not.toContain('pay-as-you-go');
    expect(terms).toContain('keep each transmission for 48 hours');
  });

  it('send readers to the operator’s own pages when TERMS_URL and PRIVACY_URL name them', async () => {
    const terms = await page(linked, '/legal/terms');
    expect(terms.status).toBe(302);
    expect(terms.headers.get('location')).toBe('https://family.example/terms');
    const privacy = await page(linked, '/legal/privacy');
    expect(privacy.headers.get('location')).toBe('https://family.example/privacy');
  });
});
