import type { Config } from './config/config.js';
import type { DatabaseHandle } from './db/database.js';

/** What every feature of the server may use; decorated on the Fastify instance as `app.ctx`. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
