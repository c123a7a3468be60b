import { existsSync } from 'node:fs';
import pino from 'pino';
import { buildApp } from './app.js';
import { resolveConfig } from './config/config.js';
import { ConfigError, parseEnv } from './config/env.js';
import { openDatabase } from './db/database.js';
import { loggerOptions } from './logging/logger-options.js';
import { guardVoiceInstances } from './voice/instance-guard.js';

async function main(): Promise<void> {
  const dev = process.argv.includes('--dev');
  // A .env file next to package.json is read when present; real environment variables win.
  if (existsSync('.env')) process.loadEnvFile('.env');
  let config;
  try {
    config = resolveConfig(parseEnv(process.env), { dev });
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
  const app = await buildApp({ config, database }).catch(async (error: unknown) => {
    await instances?.stop();
    throw error;
  });
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await instances?.stop();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Chirp is ready at ${config.publicUrl.href} (database: ${database.kind})`);
}

main().catch((error: unknown) => {
  // A configuration problem is one clear line; anything else keeps its stack.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
