import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { RoomServiceClient } from 'livekit-server-sdk';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WS_CLOSE_CODES } from '../../../protocol/sockets.js';
import { VOICE_CLOSE_CODES, userIdFromIdentity } from '../../../protocol/voice-signalling.js';
import {
  addToChannel,
  createChannel,
  setTier,
  signIn,
  type Person,
} from '../testing/people.js';
import { openDatabase } from '../db/database.js';
import { sessions, usageSessions } from '../db/schema.js';
import { TestClient } from '../testing/http-client.js';
import { claimServer } from '../testing/owner.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { TestSocket } from '../testing/test-socket.js';
import { LiveKitSubscriber } from '../voice/livekit/livekit-subscriber.js';
import { livekitHttpUrl } from '../voice/livekit/livekit-rooms.js';
import { opusPacketFactory } from '../voice/sfu/testing/sfu-test-server.js';
import { WeriftVoiceClient } from '../voice/sfu/testing/werift-voice-client.js';
import { sessionIdOf, SESSION_COOKIE } from './session-store.js';
import { voiceToken } from '../testing/voice-join.js';

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const livekitUrl = process.env.TEST_LIVEKIT_URL;
const livekitKey = process.env.TEST_LIVEKIT_API_KEY ?? '';
const livekitSecret = process.env.TEST_LIVEKIT_API_SECRET ?? '';

/** However a session ends, its sockets and voice are gone within this, on another instance. */
const WITHIN_MS = 1000;
/** The expiring session lives this long: enough to connect its sockets and voice first. */
const EXPIRY_MS = 10_000;
const PASSWORD = 'correct horse battery';
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Polls until `check` holds; fails naming `what` after `ms`. */
async function within(what: string, check: () => boolean | Promise<boolean>, ms = WITHIN_MS) {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > until) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `npm run admin -- <argv>` as an operator runs it beside the live servers. */
function npmAdmin(argv: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', 'admin', '--', ...argv],
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A socket and the close it got, once it got one. */
function watched(socket: TestSocket) {
  const state: { close?: { code: number; reason: string } } = {};
  void socket.closed().then((close) => (state.close = close));
  return { socket, state };
}

/** The same person, their cookies sent to another instance. */
function on(server: TestServer, person: Person): TestClient {
  const client = new TestClient(server.baseUrl);
  for (const [name, value] of person.client.cookies) client.cookies.set(name, value);
  return client;
}

interface Provider {
  name: 'the built-in SFU' | 'LiveKit';
  env: Record<string, string>;
}
const providers: Provider[] = [
  { name: 'the built-in SFU', env: {} },
  ...(livekitUrl
    ? [
        {
          name: 'LiveKit' as const,
          env: {
            VOICE_PROVIDER: 'livekit',
            LIVEKIT_URL: livekitUrl,
            LIVEKIT_API_KEY: livekitKey,
            LIVEKIT_API_SECRET: livekitSecret,
            LIVEKIT_ROOM_PREFIX: `t${randomBytes(3).toString('hex')}-`,
          },
        },
      ]
    : []),
];

/**
 * Every way a sign-in session or an account ends — logout, password change, expiry, account
 * deletion, and the admin command's reset-password and delete-user run beside the servers — ends
 * that session's `/ws`, `/ws/webrtc` and voice within a second on another instance than the one
 * it was ended through (two servers on one PostgreSQL and one Redis), on both voice providers.
 * Needs PostgreSQL and Redis (TEST_DATABASE_URL, TEST_REDIS_URL); LiveKit with TEST_LIVEKIT_URL.
 */
describe.runIf(databaseUrl && redisUrl)('an ended session ends its sockets and voice everywhere', () => {
  describe.each(providers)('with $name', (provider) => {
    const prefix = `chirp-test-${randomBytes(4).toString('hex')}:`;
    const dbName = `chirp_end_${randomBytes(4).toString('hex')}`;
    const dbUrl = new URL(databaseUrl ?? 'postgres://unset');
    dbUrl.pathname = `/${dbName}`;
    const logLines: string[] = [];
    let a: TestServer;
    let b: TestServer;
    let owner: Person;
    const cleanups: (() => Promise<unknown>)[] = [];
    const livekit = () => new RoomServiceClient(livekitHttpUrl(livekitUrl!), livekitKey, livekitSecret);

    beforeAll(async () => {
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`create database ${dbName}`);
      await admin.end();
      const env = {
        REDIS_URL: redisUrl!,
        REDIS_PREFIX: prefix,
        SESSION_SECRET: 'a-shared-secret-for-both-instances-0123456789',
        LOG_LEVEL: 'warn',
        ...provider.env,
      };
      const logStream = { write: (line: string) => void logLines.push(line) };
      a = await startTestServer(await openDatabase({ url: dbUrl.href, dataDir: '/tmp' }), env, { logStream });
      b = await startTestServer(await openDatabase({ url: dbUrl.href, dataDir: '/tmp' }), env, { logStream });
      owner = await signIn(b, 'Olive Owner', `olive-${provider.env.VOICE_PROVIDER ?? 'sfu'}@example.com`);
      await claimServer(b, owner.client);
    });
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => undefined);
    });
    afterAll(async () => {
      for (const server of [a, b]) {
        await server?.close();
        await server?.database.close();
      }
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    });

    const tokenFor = async (person: Person, channelId: number) =>
      (await voiceToken(person, channelId)).token;

    /** A voice connection through instance B (built-in SFU) or to LiveKit. */
    interface Voice {
      token: string;
      identity: string;
      /** Whether the voice server no longer carries it. */
      ended(): Promise<boolean>;
      sfu?: WeriftVoiceClient;
    }
    const joinVoice = async (person: Person, channelId: number): Promise<Voice> => {
      const token = await tokenFor(person, channelId);
      if (provider.name === 'the built-in SFU') {
        const sfu = await WeriftVoiceClient.join(`${b.baseUrl.replace('http', 'ws')}/rtc`, token);
        cleanups.push(() => sfu.close());
        expect(sfu.joined).toBeDefined();
        return {
          token,
          identity: sfu.joined!.self.identity,
          ended: async () => sfu.closeCode !== undefined,
          sfu,
        };
      }
      const subscriber = await LiveKitSubscriber.join(livekitUrl!, token, () => undefined, () => undefined);
      cleanups.push(() => subscriber.close());
      const room = `${provider.env.LIVEKIT_ROOM_PREFIX}${channelId}`;
      // A room LiveKit no longer has (deleted with its channel) has nobody in it.
      const identities = async () =>
        (await livekit().listParticipants(room).catch(() => [])).map((p) => p.identity);
      let identity = '';
      await within('the participant to be listed', async () => {
        identity = (await identities()).find((id) => userIdFromIdentity(id) === person.id) ?? '';
        return identity !== '';
      }, 10_000);
      return {
        token,
        identity,
        ended: async () => !(await identities()).includes(identity),
      };
    };

    /** The built-in SFU: `speaker` talks until `heard` holds (or stops after `packets`). */
    const talk = async (speaker: WeriftVoiceClient, packets: number, heard: () => boolean = () => false) => {
      const packet = opusPacketFactory();
      for (let i = 0; i < packets && !heard(); i++) {
        speaker.sendRtp(packet(80, i));
        await sleep(20);
      }
    };

    interface Subject {
      person: Person;
      channelId: number;
      ws: ReturnType<typeof watched>;
      webrtc: ReturnType<typeof watched>;
      voice: Voice;
      ownerVoice: Voice;
      /** Deleted accounts: a channel they created, with the owner in its voice room. */
      created?: { channelId: number; ownerVoice: Voice };
    }

    /**
     * The person whose session ends: both sockets open (on instance B unless `socketsOn`), in
     * the channel's voice with the owner (through B), and hearing the owner (built-in SFU).
     */
    const connect = async (
      person: Person,
      options: { creator?: boolean; socketsOn?: TestServer } = {},
    ): Promise<Subject> => {
      const channelId = await createChannel(owner, `Talk ${person.name}`);
      await addToChannel(owner, channelId, person);
      const sockets = on(options.socketsOn ?? b, person);
      const ws = watched(await TestSocket.open(sockets));
      const webrtc = watched(await TestSocket.open(sockets, { path: '/ws/webrtc' }));
      cleanups.push(() => ws.socket.close(), () => webrtc.socket.close());
      const ownerVoice = await joinVoice(owner, channelId);
      const voice = await joinVoice(person, channelId);
      let created: Subject['created'];
      if (options.creator) {
        await setTier(owner, person, 'admin');
        const mine = await createChannel(person, `Mine ${person.name}`);
        await addToChannel(person, mine, owner);
        created = { channelId: mine, ownerVoice: await joinVoice(owner, mine) };
      }
      if (voice.sfu && ownerVoice.sfu) {
        const [listener, speaker] = [voice.sfu, ownerVoice.sfu];
        await speaker.waitFor(() => speaker.isPublishing, 10_000, 'publish slot');
        const heard = () => (listener.received.get(ownerVoice.identity) ?? 0) > 0;
        await talk(speaker, 500, heard);
        expect(heard()).toBe(true);
      }
      return { person, channelId, ws, webrtc, voice, ownerVoice, created };
    };

    /** What must hold once the session ended: all of it within a second of the end. */
    const expectEnded = async (subject: Subject, wsReason: string) => {
      const deadline = Date.now() + WITHIN_MS;
      const left = () => Math.max(0, deadline - Date.now());
      await within('/ws to close', () => subject.ws.state.close !== undefined, left());
      await within('/ws/webrtc to close', () => subject.webrtc.state.close !== undefined, left());
      await within('the voice to end', () => subject.voice.ended(), left());
      expect(subject.ws.state.close).toEqual({ code: WS_CLOSE_CODES.unauthorized, reason: wsReason });
      expect(subject.webrtc.state.close?.code).toBe(WS_CLOSE_CODES.unauthorized);
      if (subject.created)
        await within("the deleted creator's channel room to close", () => subject.created!.ownerVoice.ended(), left());

      const { sfu } = subject.voice;
      if (!sfu) return;
      expect(sfu.closeCode).toBe(VOICE_CLOSE_CODES.unauthorized);
      if (subject.created) expect(subject.created.ownerVoice.sfu?.closeCode).toBe(VOICE_CLOSE_CODES.roomClosed);
      // No audio reaches the ended session any more...
      await sleep(200);
      const before = sfu.received.get(subject.ownerVoice.identity) ?? 0;
      await talk(subject.ownerVoice.sfu!, 50);
      expect(sfu.received.get(subject.ownerVoice.identity) ?? 0).toBe(before);
      // ...and its voice token, still within its ten minutes, does not get back in.
      const again = await WeriftVoiceClient.join(`${b.baseUrl.replace('http', 'ws')}/rtc`, subject.voice.token);
      cleanups.push(() => again.close());
      await again.waitFor(() => again.closeCode !== undefined, 5000, 'the old token refused');
      expect(again.closeCode).toBe(VOICE_CLOSE_CODES.unauthorized);
      expect(again.joined).toBeUndefined();
    };

    const person = (way: string) =>
      signIn(b, `Sam ${way}`, `sam-${way}-${provider.env.VOICE_PROVIDER ?? 'sfu'}@example.com`);
    const adminEnv = () => ({
      DATABASE_URL: dbUrl.href,
      REDIS_URL: redisUrl!,
      REDIS_PREFIX: prefix,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'chirp-admin-')),
    });

    it('logout, through the other instance', async () => {
      const subject = await connect(await person('logout'));
      const logout = await on(a, subject.person).request('/api/logout');
      expect(logout.status).toBe(302);
      await expectEnded(subject, 'Session ended');
    });

    it("a password change: the account's other sessions end, the one that changed it stays", async () => {
      const subject = await connect(await person('password'));
      const laptop = await signIn(b, subject.person.name, subject.person.email);
      const kept = watched(await TestSocket.open(laptop.client));
      cleanups.push(() => kept.socket.close());
      const changed = await on(a, laptop).request('/api/account/password', {
        method: 'POST',
        json: { currentPassword: PASSWORD, newPassword: 'a brand new password' },
      });
      expect(changed.status).toBe(200);
      await expectEnded(subject, 'Session ended');
      expect(kept.state.close).toBeUndefined();
      expect((await laptop.client.request('/api/auth/user')).status).toBe(200);
    });

    it('expiry, noticed where the sockets are and felt where the voice is', async () => {
      const subject = await person('expiry');
      const expiresAt = Date.now() + EXPIRY_MS;
      const token = subject.client.cookies.get(SESSION_COOKIE)!;
      await b.database.db
        .update(sessions)
        .set({ expiresAt: new Date(expiresAt) })
        .where(eq(sessions.idHash, sessionIdOf(token)));
      // Sockets on A, voice on B: B holds nothing that would notice the expiry by itself.
      const connected = await connect(subject, { socketsOn: a });
      expect(Date.now(), 'connected before the session expired').toBeLessThan(expiresAt);
      await sleep(expiresAt - Date.now());
      await expectEnded(connected, 'Session expired');
    });

    it("account deletion by its owner, who created a channel with people in its voice room", async () => {
      const subject = await connect(await person('deleted'), { creator: true });
      logLines.length = 0;
      const deleted = await on(a, subject.person).request('/api/account', {
        method: 'DELETE',
        json: { password: PASSWORD },
      });
      expect(deleted.status).toBe(200);
      await expectEnded(subject, 'Account deleted');
      await sleep(300);
      // Their usage went with them, and their ended connection is not metered with an error.
      const rows = await b.database.db.select().from(usageSessions).where(eq(usageSessions.userId, subject.person.id));
      expect(rows).toEqual([]);
      expect(logLines.filter((line) => /voice usage not recorded|foreign key/i.test(line))).toEqual([]);
    });

    it('npm run admin -- reset-password, run beside the servers', async () => {
      const subject = await connect(await person('reset'));
      const reset = await npmAdmin(['reset-password', subject.person.email], adminEnv());
      expect(reset).toMatchObject({ code: 0 });
      expect(reset.stdout).toContain('Every session of this account has ended');
      await expectEnded(subject, 'Session ended');
    });

    it('npm run admin -- delete-user, run beside the servers', async () => {
      const subject = await connect(await person('removed'), { creator: true });
      logLines.length = 0;
      const removed = await npmAdmin(['delete-user', subject.person.id, '--yes'], adminEnv());
      expect(removed).toMatchObject({ code: 0 });
      await expectEnded(subject, 'Account deleted');
      await sleep(300);
      expect(logLines.filter((line) => /voice usage not recorded|foreign key/i.test(line))).toEqual([]);
    });
  });
});
