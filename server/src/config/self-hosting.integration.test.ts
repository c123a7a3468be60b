import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_MONTHLY_MINUTES } from '../../../protocol/usage.js';
import { signIn, type Person } from '../testing/people.js';
import { runAdminCommand } from '../admin/admin-commands.js';
import { usageSessions } from '../db/schema.js';
import { TestClient } from '../testing/http-client.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

/** One server per switch setting, on the embedded database (these switches do not touch SQL). */
async function serverWith(env: Record<string, string>): Promise<TestServer> {
  return startTestServer(await testDatabases()[0]!.open(), env);
}

const overTheAllowance = async (server: TestServer, person: Person) => {
  await runAdminCommand(server.database.db, ['grant-superadmin', person.id], { print: () => undefined });
  const created = await person.client.request('/api/channels', { method: 'POST', json: { name: 'Family' } });
  const channelId = ((await created.json()) as { id: number }).id;
  await server.database.db
    .insert(usageSessions)
    .values({ userId: person.id, channelId, endedAt: new Date(), participantMinutes: FREE_MONTHLY_MINUTES + 5 });
  const start = await person.client.request('/api/usage/session/start', { method: 'POST', json: { channelId } });
  const token = await person.client.request('/api/livekit-token', {
    method: 'POST',
    json: { channelId, userId: person.id, userName: person.name },
  });
  return { start: start.status, token: token.status };
};

describe('self-hosting switches', () => {
  let billed: TestServer, family: TestServer;
  beforeAll(async () => {
    billed = await serverWith({});
    family = await serverWith({
      BILLING: 'off',
      TERMS_URL: 'https://family.example/terms',
      PRIVACY_URL: 'https://family.example/privacy',
    });
  });
  afterAll(async () => {
    for (const server of [billed, family]) {
      await server.close();
      await server.database.close();
    }
  });

  it('GET /api/config tells signed-out browsers about billing and the legal links (the server\'s own by default)', async () => {
    expect(await (await new TestClient(billed.baseUrl).request('/api/config')).json()).toEqual({
      billing: true,
      termsUrl: `${billed.baseUrl}/legal/terms`,
      privacyUrl: `${billed.baseUrl}/legal/privacy`,
    });
    expect(await (await new TestClient(family.baseUrl).request('/api/config')).json()).toEqual({
      billing: false,
      termsUrl: 'https://family.example/terms',
      privacyUrl: 'https://family.example/privacy',
    });
  });

  it('with billing, a user over the allowance is refused; with BILLING=off, nobody is', async () => {
    expect(await overTheAllowance(billed, await signIn(billed, 'Over Limit', 'over@example.com'))).toEqual({ start: 429, token: 429 });
    expect(await overTheAllowance(family, await signIn(family, 'Grandma Talks', 'gran@example.com'))).toEqual({ start: 200, token: 200 });
  });
});
