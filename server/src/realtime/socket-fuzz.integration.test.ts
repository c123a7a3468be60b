import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberUpdate } from '../../../protocol/sockets.js';
import { seedFuzzTarget } from '../testing/fuzz/fuzz-setup.js';
import { fuzzSockets } from '../testing/fuzz/socket-fuzzer.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { TestClient } from '../testing/http-client.js';
import { TestSocket } from '../testing/test-socket.js';

/** `npm run bench fuzz` sends ≥ 100,000; the suite sends this many. */
const FRAMES = 10_000;
const SEED = Number(process.env.FUZZ_SEED ?? 12);

/**
 * Random and mutated frames from the protocol unions of `/ws`, `/ws/webrtc` and
 * the SFU's `/rtc`, against a real server. It must stay up and answer, leak no sockets or voice
 * sessions, reject no promise unhandled, and a client connected throughout must keep working.
 */
describe('socket fuzzing', () => {
  let server: TestServer;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    const [database] = testDatabases();
    server = await startTestServer(await database!.open());
    process.on('unhandledRejection', onUnhandled);
    process.on('uncaughtException', onUnhandled);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    process.off('uncaughtException', onUnhandled);
    await server.close();
    await server.database.close();
  });

  it(`survives ${FRAMES.toLocaleString('en')} hostile frames and keeps serving a well-behaved client`, async () => {
    const target = await seedFuzzTarget(server.database.db, {
      baseUrl: server.baseUrl,
      sessionSecret: server.config.sessionSecret,
      users: 12,
    });
    // A well-behaved pair, connected before the fuzzing starts and still there after it.
    const [watcherCookie, talkerCookie] = target.cookies.slice(-2).map((cookie) => {
      const client = new TestClient(server.baseUrl);
      const [name, value] = cookie.split('=');
      client.cookies.set(name!, value!);
      return client;
    });
    target.cookies = target.cookies.slice(0, -2);
    const watcher = await TestSocket.open(watcherCookie!);
    watcher.send({ type: 'join_channel', channelId: target.channelId });
    await watcher.next((m) => m.type === 'member_update');

    const heapBefore = process.memoryUsage().heapUsed;
    const stats = await fuzzSockets(target, { frames: FRAMES, seed: SEED });
    expect(stats.frames).toBe(FRAMES);
    expect(stats.byRoute.ws! + stats.byRoute.webrtc! + stats.byRoute.rtc!).toBe(FRAMES);

    // Still up, still answering.
    expect((await new TestClient(server.baseUrl).request('/healthz')).status).toBe(200);
    // The watcher, connected all along, still hears a new talker.
    const talker = await TestSocket.open(talkerCookie!);
    talker.send({ type: 'join_channel', channelId: target.channelId });
    talker.send({ type: 'start_talking', channelId: target.channelId });
    const talkerId = (await (await talkerCookie!.request('/api/auth/user')).json()) as {
      id: string;
    };
    await watcher.next<MemberUpdate>(
      (m) => m.type === 'member_update' && m.member.id === talkerId.id && m.member.isTalking,
    );
    await talker.close();

    // Nothing of the fuzzing sockets is left behind once they are closed. (A voice session whose
    // socket merely vanished is kept 20 s for a resume; the fuzzer closes cleanly.)
    const { ctx } = server.app;
    const room = `channel-${target.channelId}`;
    const leftovers = () =>
      ctx.sockets.size > 1 ||
      ctx.hub.socketCount > 1 ||
      (ctx.voice.sfu?.participants(room).length ?? 0) > 0;
    const settled = Date.now() + 10_000;
    while (leftovers() && Date.now() < settled)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ctx.sockets.size).toBe(1);
    expect(ctx.hub.socketCount).toBe(1);
    expect(ctx.voice.sfu?.participants(room)).toEqual([]);
    // Bounded memory: a leak of even 10 KB a frame would show here.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(100 * 1024 * 1024);
    expect(unhandled).toEqual([]);
    await watcher.close();
  }, 180_000);
});
