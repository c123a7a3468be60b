import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { resolveConfig } from '../config/config.js';
import { ConfigError, parseEnv } from '../config/env.js';
import { openDatabase } from '../db/database.js';
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
  const app = await buildApp({ config, database, serveClient: options.serveClient ?? true });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void gracefulShutdown(app, database, signal));
  }
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Chirp is ready at ${config.publicUrl.href} (database: ${database.kind})`);
  return app;
}
