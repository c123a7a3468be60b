import { afterEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../testing/test-databases.js';
import { freePort, startTestServer, type TestServer } from '../testing/test-server.js';

const livekit = {
  url: process.env.TEST_LIVEKIT_URL,
  key: process.env.TEST_LIVEKIT_API_KEY,
  secret: process.env.TEST_LIVEKIT_API_SECRET,
};

/** /readyz with VOICE_PROVIDER=livekit asks LiveKit's API; a real LiveKit server runs where CI has one. */
describe('GET /readyz with LiveKit', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    await server?.database.close();
    server = undefined;
  });
  const readyz = async () => {
    const response = await fetch(`${server!.baseUrl}/readyz`);
    return { status: response.status, body: await response.json() };
  };

  it('names LiveKit when its API does not answer', async () => {
    const nobody = await freePort();
    server = await startTestServer(await testDatabases()[0]!.open(), {
      VOICE_PROVIDER: 'livekit',
      LIVEKIT_URL: `ws://127.0.0.1:${nobody}`,
      LIVEKIT_API_KEY: 'devkey',
      LIVEKIT_API_SECRET: 'secret-secret-secret-secret-secret',
    });
    expect(await readyz()).toEqual({
      status: 503,
      body: { status: 'unavailable', failed: ['livekit'], checks: { database: 'ok', livekit: 'failed' } },
    });
  });

  it.runIf(livekit.url && livekit.key && livekit.secret)('is ready when the real LiveKit server answers', async () => {
    server = await startTestServer(await testDatabases()[0]!.open(), {
      VOICE_PROVIDER: 'livekit',
      LIVEKIT_URL: livekit.url!,
      LIVEKIT_API_KEY: livekit.key!,
      LIVEKIT_API_SECRET: livekit.secret!,
    });
    expect(await readyz()).toEqual({ status: 200, body: { status: 'ready', checks: { database: 'ok', livekit: 'ok' } } });
  });
});
