import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { RoomServiceClient } from 'livekit-server-sdk';
import type { Config } from '../config/config.js';
import type { DatabaseHandle } from '../db/database.js';
import { livekitHttpUrl } from '../voice/livekit/livekit-provider.js';

/** A dependency that does not answer within this long counts as down: probes must answer quickly. */
const CHECK_TIMEOUT_MS = 2000;
/** Load balancers probe every few seconds from several places; one round of checks serves them all. */
const CACHE_MS = 1000;

export type DependencyName = 'database' | 'redis' | 'livekit';

export interface ReadinessReport {
  ready: boolean;
  checks: Partial<Record<DependencyName, 'ok' | 'failed'>>;
  failed: DependencyName[];
}

export interface Readiness {
  check(): Promise<ReadinessReport>;
  close(): void;
}

const within = (check: () => Promise<boolean>) =>
  Promise.race([
    check().catch(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), CHECK_TIMEOUT_MS).unref()),
  ]);

/**
 * Whether this instance can serve: every dependency it is configured with answers — the database,
 * Redis (REDIS_URL) and LiveKit's API (VOICE_PROVIDER=livekit). Redis is asked on a connection of
 * its own that never queues commands, so a dead Redis fails the check at once instead of waiting
 * for reconnects.
 */
export function createReadiness(config: Config, database: DatabaseHandle, log: FastifyBaseLogger): Readiness {
  const checks: [DependencyName, () => Promise<boolean>][] = [['database', () => database.ping()]];

  let redis: Redis | undefined;
  if (config.redisUrl) {
    const client = new Redis(config.redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: CHECK_TIMEOUT_MS,
      retryStrategy: (times) => Math.min(times * 250, 2000),
    });
    // The bus logs Redis trouble already; this connection only answers the probe.
    client.on('error', () => undefined);
    redis = client;
    checks.push(['redis', async () => (await client.ping()) === 'PONG']);
  }

  const { livekit } = config.voice;
  if (config.voice.provider === 'livekit' && livekit.url && livekit.apiKey && livekit.apiSecret) {
    const rooms = new RoomServiceClient(livekitHttpUrl(livekit.url), livekit.apiKey, livekit.apiSecret, {
      requestTimeout: CHECK_TIMEOUT_MS / 1000,
    });
    checks.push(['livekit', async () => Array.isArray(await rooms.listRooms())]);
  }

  let cached: { at: number; report: Promise<ReadinessReport> } | undefined;
  let lastFailed = '';
  const run = async (): Promise<ReadinessReport> => {
    const results = await Promise.all(checks.map(async ([name, check]) => [name, await within(check)] as const));
    const failed = results.filter(([, ok]) => !ok).map(([name]) => name);
    // Logged when the set of failing dependencies changes, not at every probe.
    const key = failed.join(',');
    if (key !== lastFailed) {
      if (failed.length) log.warn({ failed }, 'not ready: a dependency does not answer');
      else log.info('ready: every dependency answers again');
      lastFailed = key;
    }
    return {
      ready: failed.length === 0,
      checks: Object.fromEntries(results.map(([name, ok]) => [name, ok ? 'ok' : 'failed'])),
      failed,
    };
  };

  return {
    check() {
      if (!cached || Date.now() - cached.at > CACHE_MS) cached = { at: Date.now(), report: run() };
      return cached.report;
    },
    close() {
      redis?.disconnect();
    },
  };
}
