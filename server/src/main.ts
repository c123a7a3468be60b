import { existsSync } from 'node:fs';
import { startServer } from './lifecycle/start-server.js';

// A .env file next to package.json is read when present; real environment variables win.
if (existsSync('.env')) process.loadEnvFile('.env');

startServer(process.env, { dev: process.argv.includes('--dev') }).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
