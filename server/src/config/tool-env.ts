import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { keepNewFilesPrivate } from '../data-dir/private-data-dir.js';
import { ConfigError, parseEnv, type Env } from './env.js';

/**
 * The configuration an operator's command-line tool (admin, backup) runs with: the same `.env` and
 * environment as the server, so it acts on the database the server uses. A bad value ends the tool
 * with the server's one-line message.
 */
export function toolEnv(): Env & { dataDirPath: string } {
  // What a tool writes (the embedded database's files, backups) is the server's user's alone.
  keepNewFilesPrivate();
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    const env = parseEnv(process.env);
    return { ...env, dataDirPath: resolve(env.DATA_DIR) };
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
