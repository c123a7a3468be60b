import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../app.js';
import { resolveConfig } from '../config/config.js';
import { ConfigError, parseEnv } from '../config/env.js';
import { openDatabase } from '../db/database.js';
import { loggerOptions } from '../logging/logger-options.js';
import { guardVoiceInstances } from '../voice/instance-guard.js';
import { gracefulShutdown } from './graceful-shutdown.js';

/**
 * Everything `npm start` does after reading the environment: validate it, open and migrate the
 * database, build the app, stop gracefully on SIGTERM/SIGINT, listen. A bad setting ends the
 * process with one line per problem.
 */
export async function startServer(
  env: Record<string, string | undefined>,
  options: { dev?: boolean; serveClient?: boolean } = {},
): Promise<FastifyInstance> {
  let config;
  try {
    config = resolveConfig(parseEnv(env), { dev: options.dev ?? false });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  // Several instances on one PostgreSQL: refuse a voice setup that cannot span them (README), before
  // anything else starts; later conflicts go to this log.
  const instances =
    database.kind === 'postgres'
      ? await guardVoiceInstances(database.db, config, pino(loggerOptions(config.logLevel)))
      : undefined;
  const app = await buildApp({ config, database, serveClient: options.serveClient ?? true }).catch(
    async (error: unknown) => {
      await instances?.stop();
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
