import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import { requireUser } from '../auth/require-user.js';
import { setPayAsYouGo, usageOf } from './usage-store.js';

/** The user's own usage figures and their pay-as-you-go switch; voice's usage sessions are voice's routes. */
export function registerUsageRoutes(app: FastifyInstance): void {
  const db = () => app.ctx.database.db;

  app.get(API_PATHS.usage, async (request) => {
    const user = await requireUser(request);
    return usageOf(db(), user.id);
  });

  for (const [path, enabled] of [
    [API_PATHS.payAsYouGoEnable, true],
    [API_PATHS.payAsYouGoDisable, false],
  ] as const) {
    app.post(path, async (request) => {
      const user = await requireUser(request);
      await setPayAsYouGo(db(), user.id, enabled);
      return { payAsYouGoEnabled: enabled };
    });
  }
}
