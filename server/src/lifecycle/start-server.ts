import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../app.js';
import { resolveConfig, type Config } from '../config/config.js';
import { ConfigError, parseEnv } from '../config/env.js';
import { keepNewFilesPrivate, makeDataDirPrivate } from '../data-dir/private-data-dir.js';
import { openDatabase } from '../db/database.js';
import { loggerOptions } from '../logging/logger-options.js';
import { requireRedis } from '../realtime/require-redis.js';
import { guardVoiceInstances } from '../voice/instance-guard.js';
import { gracefulShutdown } from './graceful-shutdown.js';
import { StartRefusal } from '../start-refusal.js';

/**
 * Everything `npm start` does after reading the environment: validate it, make the data folder
 * private, check that Redis answers, open and migrate the database, build the app, stop gracefully
 * on SIGTERM/SIGINT, listen. A bad setting, a data folder others can change or a Redis that does
 * not answer ends the process with one line.
 */
export async function startServer(
  env: Record<string, string | undefined>,
  options: { dev?: boolean; serveClient?: boolean } = {},
): Promise<FastifyInstance> {
  // Before anything is written: PGlite, the session secret, setup codes, recordings.
  keepNewFilesPrivate();
  try {
    return await start(env, options);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof StartRefusal) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

function readConfig(env: Record<string, string | undefined>, dev: boolean): { config: Config; madePrivate: number } {
  const parsed = parseEnv(env);
  // The session secret is written into DATA_DIR while resolving: the folder is made private first.
  const { madePrivate } = makeDataDirPrivate(resolve(parsed.DATA_DIR));
  return { config: resolveConfig(parsed, { dev }), madePrivate };
}

async function start(
  env: Record<string, string | undefined>,
  options: { dev?: boolean; serveClient?: boolean },
): Promise<FastifyInstance> {
  const { config, madePrivate } = readConfig(env, options.dev ?? false);
  const log = pino(loggerOptions(config.logLevel));
  if (madePrivate > 0) {
    log.warn(
      `Made ${madePrivate} files and folders in DATA_DIR ${config.dataDir} private to this server's user; ` +
        'other accounts on this machine could read them until now.',
    );
  }
  if (config.redisUrl) await requireRedis(config.redisUrl);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  // Several instances on one PostgreSQL: refuse a voice setup that cannot span them (README), before
  // anything else starts; later conflicts go to this log.
  const instances =
    database.kind === 'postgres' ? await guardVoiceInstances(database.db, config, log) : undefined;
  const app = await buildApp({ config, database, serveClient: options.serveClient ?? true }).catch(
    async (error: unknown) => {
      await instances?.stop();
      await database.close().catch(() => undefined);
      throw error;
    },
  );
  if (instances) app.addHook('onClose', () => instances.stop());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void gracefulShutdown(app, database, signal));
  }
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Chirp is ready at ${config.publicUrl.href} (database: ${database.kind})`);
  return app;
}
