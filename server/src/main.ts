import { existsSync } from 'node:fs';
import { ConfigError } from './config/env.js';
import { startServer } from './lifecycle/start-server.js';
import { StartRefusal } from './start-refusal.js';

// A .env file next to package.json is read when present; real environment variables win.
if (existsSync('.env')) process.loadEnvFile('.env');

startServer(process.env, { dev: process.argv.includes('--dev') }).catch((error: unknown) => {
  // A configuration problem (including a voice setup several instances cannot share), a data folder
  // others can change or a missing Redis is one clear line; anything else keeps its stack.
  console.error(error instanceof ConfigError || error instanceof StartRefusal ? error.message : error);
  process.exit(1);
});
