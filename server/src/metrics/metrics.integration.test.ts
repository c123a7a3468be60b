import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, signIn, type Person } from '../testing/people.js';
import { runAdminCommand } from '../admin/admin-commands.js';
import { signInBuiltIn, TestClient } from '../testing/http-client.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { TestSocket } from '../testing/test-socket.js';
import { opusPacketFactory } from '../voice/sfu/testing/sfu-test-server.js';
import { joinVoice } from '../testing/voice-join.js';

/** One sample's value from Prometheus text, e.g. `chirp_online_users` or `x{a="b"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  let server: TestServer;
  let ann: Person;
  let bob: Person;
  const scrape = async (headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.baseUrl}/metrics`, { headers });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    return response.text();
  };

  beforeAll(async () => {
    server = await startTestServer(await testDatabases()[0]!.open());
    ann = await signIn(server, 'Ann Admin', 'ann@example.com');
    bob = await signIn(server, 'Bob Member', 'bob@example.com');
    await runAdminCommand(server.database.db, ['grant-superadmin', ann.id], { print: () => undefined });
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('counts open sockets and online users as people connect and leave', async () => {
    const before = await scrape();
    expect(sample(before, 'chirp_online_users')).toBe(0);
    const sockets = [await TestSocket.open(ann.client), await TestSocket.open(ann.client), await TestSocket.open(bob.client)];
    const during = await scrape();
    expect(sample(during, 'chirp_open_sockets{path="/ws"}')).toBe(3);
    expect(sample(during, 'chirp_online_users')).toBe(2);
    for (const socket of sockets) socket.ws.close();
    await expect.poll(async () => sample(await scrape(), 'chirp_online_users')).toBe(0);
    expect(sample(await scrape(), 'chirp_open_sockets{path="/ws"}')).toBe(0);
  });

  it('times requests by route pattern, not by URL, and counts refused sign-ins', async () => {
    for (const id of [101, 102, 103]) await ann.client.request(`/api/channels/${id}/members`);
    const text = await scrape();
    expect(sample(text, 'chirp_http_request_duration_seconds_count{method="GET",route="/api/channels/:id/members",status_code="404"}')).toBe(3);
    expect(text).not.toContain('/api/channels/101');

    const failuresBefore = sample(text, 'chirp_sign_in_failures_total{step="password"}') ?? -1;
    const refused = await signInBuiltIn(new TestClient(server.baseUrl), { name: 'Ann', email: 'ann@example.com', password: 'not her password' });
    expect(refused.status).toBe(401);
    expect(sample(await scrape(), 'chirp_sign_in_failures_total{step="password"}')).toBe(failuresBefore + 1);
  });

  it('shows the open usage records of the voice server and the built-in SFU at work: rooms, peers, packets and the path they took', async () => {
    const { id: channelId } = await body<{ id: number }>(await ann.client.request('/api/channels', { method: 'POST', json: { name: 'Metered' } }));
    await ann.client.request(`/api/channels/${channelId}/members`, { method: 'POST', json: { userId: bob.id } });
    const openBefore = sample(await scrape(), 'chirp_usage_sessions_open') ?? -1;

    const join = (person: Person) => joinVoice(person, channelId);
    const talker = await join(ann);
    const listener = await join(bob);
    try {
      await talker.waitFor(() => talker.isPublishing, 15_000, 'publish slot');
      const next = opusPacketFactory();
      for (let i = 0; i < 50; i++) {
        talker.sendRtp(next(80, i));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await listener.waitFor(() => [...listener.received.values()].some((n) => n > 10), 10_000, 'audio at the listener');
      const text = await scrape();
      expect(sample(text, 'chirp_sfu_rooms')).toBe(1);
      expect(sample(text, 'chirp_sfu_peers')).toBe(2);
      expect(sample(text, 'chirp_open_sockets{path="/rtc"}')).toBe(2);
      expect(sample(text, 'chirp_sfu_packets_received_total')).toBeGreaterThanOrEqual(40);
      expect(sample(text, 'chirp_sfu_packets_forwarded_total')).toBeGreaterThanOrEqual(40);
      expect(sample(text, 'chirp_sfu_packets_lost_total')).toBe(0);
      // Every packet left by the SFU's own SRTP and UDP send, none through werift's sender: a
      // werift upgrade that moved what the fast path reads would show here.
      expect(sample(text, 'chirp_sfu_fast_path_packets_total')).toBeGreaterThanOrEqual(40);
      expect(sample(text, 'chirp_sfu_slow_path_packets_total')).toBe(0);
      // The voice server meters each connection (decision 016): one open record per member.
      expect(sample(text, 'chirp_usage_sessions_open')).toBe(openBefore + 2);
    } finally {
      await talker.close();
      await listener.close();
    }
    await expect.poll(async () => sample(await scrape(), 'chirp_sfu_peers'), { timeout: 10_000 }).toBe(0);
    await expect.poll(async () => sample(await scrape(), 'chirp_usage_sessions_open'), { timeout: 10_000 }).toBe(openBefore);
  });

  it("includes Node's own figures: event-loop lag, memory, CPU", async () => {
    const text = await scrape();
    for (const series of ['nodejs_eventloop_lag_seconds', 'process_resident_memory_bytes', 'process_cpu_seconds_total']) {
      expect(sample(text, series)).toBeGreaterThanOrEqual(0);
    }
  });

  it('answers only this machine without METRICS_TOKEN: a proxied request is refused', async () => {
    const proxied = await fetch(`${server.baseUrl}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(proxied.status).toBe(403);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(await testDatabases()[0]!.open(), { METRICS_TOKEN: 'scrape-me-with-this-token' });
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  it('answers only the bearer of the token, from anywhere', async () => {
    const get = (headers: Record<string, string>) => fetch(`${server.baseUrl}/metrics`, { headers });
    const none = await get({});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    expect((await get({ authorization: 'Bearer wrong-token-of-the-same-len' })).status).toBe(401);
    expect((await get({ authorization: 'Basic scrape-me-with-this-token' })).status).toBe(401);
    const ok = await get({ authorization: 'Bearer scrape-me-with-this-token', 'x-forwarded-for': '203.0.113.9' });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('chirp_online_users');
  });
});
