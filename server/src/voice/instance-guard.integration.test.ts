import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../config/config.js';
import { parseEnv } from '../config/env.js';
import { openDatabase, type DatabaseHandle } from '../db/database.js';
import { serverInstances } from '../db/schema.js';
import { RedisBus } from '../realtime/redis-bus.js';
import { guardVoiceInstances, VoiceInstanceConflict } from './instance-guard.js';
import { pinnedVoiceEffects } from './pinned-voice-effects.js';
import { noVoiceProvider, type VoiceProvider } from './voice-provider.js';

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const log = pino({ level: 'silent' });

const configOf = (env: Record<string, string>) =>
  resolveConfig(
    parseEnv({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'chirp-guard-')),
      SESSION_SECRET: 'x'.repeat(32),
      ...env,
    }),
  );

/** Several instances on one PostgreSQL (TEST_DATABASE_URL; CI sets it). */
describe.runIf(databaseUrl)('several instances and the built-in SFU', () => {
  const name = `chirp_guard_${randomBytes(4).toString('hex')}`;
  let url: string;
  let database: DatabaseHandle;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const parsed = new URL(databaseUrl!);
    parsed.pathname = `/${name}`;
    url = parsed.href;
    database = await openDatabase({ url, dataDir: tmpdir() });
  });
  afterAll(async () => {
    await database.close();
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  const guard = (env: Record<string, string>) =>
    guardVoiceInstances(database.db, configOf(env), log);

  it('refuses a second instance on the built-in SFU, and says what to do', async () => {
    const first = await guard({ PORT: '5101' });
    await expect(guard({ PORT: '5102' })).rejects.toThrow(VoiceInstanceConflict);
    await expect(guard({ PORT: '5102' })).rejects.toThrow(
      /VOICE_PROVIDER=livekit.*VOICE_PINNED=true/,
    );
    // A restart of the first (same host and port) is itself, not a sibling.
    const restarted = await guard({ PORT: '5101' });
    await restarted.stop();
    await first.stop();
    // Stopped instances leave no row: the next one starts.
    await (await guard({ PORT: '5102' })).stop();
  });

  it('lets instances share the database on LiveKit, or pinned, but never on mixed providers', async () => {
    const livekit = {
      VOICE_PROVIDER: 'livekit',
      LIVEKIT_URL: 'ws://127.0.0.1:9',
      LIVEKIT_API_KEY: 'k',
      LIVEKIT_API_SECRET: 's',
    };
    const a = await guard({ PORT: '5201', ...livekit });
    const b = await guard({ PORT: '5202', ...livekit });
    await expect(guard({ PORT: '5203' })).rejects.toThrow(/same voice provider/);
    await a.stop();
    await b.stop();
    const p = await guard({ PORT: '5204', VOICE_PINNED: 'true' });
    const q = await guard({ PORT: '5205', VOICE_PINNED: 'true' });
    await expect(guard({ PORT: '5206' })).rejects.toThrow(/VOICE_PINNED/);
    await p.stop();
    await q.stop();
  });

  it('ignores an instance that stopped beating (crashed) long enough ago', async () => {
    await database.db.insert(serverInstances).values({
      id: 'crashed-host:5000',
      voiceProvider: 'embedded',
      seenAt: new Date(Date.now() - 60_000),
    });
    await (await guard({ PORT: '5301' })).stop();
  });

  it('the server process itself refuses to start, with one line', async () => {
    const running = await guard({ PORT: '5401' });
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
        env: {
          PATH: process.env.PATH,
          PORT: '0',
          HOST: '127.0.0.1',
          DATABASE_URL: url,
          DATA_DIR: mkdtempSync(join(tmpdir(), 'chirp-guard-')),
          SESSION_SECRET: 'y'.repeat(32),
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(/^Refusing to start: Other Chirp instances share this database/);
    } finally {
      await running.stop();
    }
  }, 60_000);
});

/** The pinned built-in SFU: an effect decided on any instance reaches the SFU of every instance. */
describe.runIf(redisUrl)('pinned built-in SFU effects over Redis', () => {
  it('a mute, block, removal and deletion made on one instance reach the other', async () => {
    const ns = `chirp-test-${randomBytes(4).toString('hex')}:`;
    const buses = [
      new RedisBus(redisUrl!, ns, () => undefined),
      new RedisBus(redisUrl!, ns, () => undefined),
    ];
    const seen: string[][] = [[], []];
    const local = (index: number): VoiceProvider => ({
      ...noVoiceProvider,
      setPublisherMuted: async (channelId, userId, muted) =>
        void seen[index]!.push(`mute ${channelId} ${userId} ${muted}`),
      disconnectUser: async (channelId, userId) =>
        void seen[index]!.push(`disconnect ${channelId} ${userId}`),
      closeRoom: async (channelId) => void seen[index]!.push(`close ${channelId}`),
      blockChanged: async (blockerId, blockedId, blocked) =>
        void seen[index]!.push(`block ${blockerId} ${blockedId} ${blocked}`),
    });
    try {
      const [onA] = await Promise.all([
        pinnedVoiceEffects(local(0), buses[0]!, log),
        pinnedVoiceEffects(local(1), buses[1]!, log),
      ]);
      await onA.setPublisherMuted(3, 'u1', true);
      await onA.blockChanged('u1', 'u2', true);
      await onA.disconnectUser(3, 'u2');
      await onA.closeRoom(3);
      const expected = ['mute 3 u1 true', 'block u1 u2 true', 'disconnect 3 u2', 'close 3'];
      // Delivery over Redis, not its speed, is what this checks: a loaded machine may take seconds.
      // The sending instance applies its own effects as they come back over the bus too (one
      // order for all), so it is polled like the other: CI once saw B apply "close" before A.
      await expect.poll(() => seen[1], { timeout: 10_000 }).toEqual(expected);
      await expect.poll(() => seen[0], { timeout: 10_000 }).toEqual(expected);
    } finally {
      for (const bus of buses) await bus.close();
    }
  });
});
