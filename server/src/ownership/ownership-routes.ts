import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import {
  claimOwnershipBodySchema,
  OWNER_ALREADY_CLAIMED_MESSAGE,
  WRONG_SETUP_CODE_MESSAGE,
  type SetupStatusResponse,
} from '../../../protocol/setup.js';
import { requireUser } from '../auth/require-user.js';
import { toUserView } from '../auth/user-view.js';
import { badRequest, conflict, tooManyRequests } from '../http/errors.js';
import { removeSetupCodeFile } from './owner-setup-at-start.js';
import { claimOwnership, hasOwner } from './owner-store.js';

/** Ten guesses per quarter hour per person and per address: 100-bit codes need far more than that. */
const CLAIM_ATTEMPTS = 10;
const CLAIM_WINDOW_S = 15 * 60;

export function registerOwnershipRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  app.get(API_PATHS.setup, async () => {
    return { ownerClaimed: await hasOwner(ctx.database.db) } satisfies SetupStatusResponse;
  });

  app.post(API_PATHS.setupClaim, async (request) => {
    const user = await requireUser(request);
    const { code } = claimOwnershipBodySchema.parse(request.body);
    const attempts = ctx.counters.counter('setup-claim', CLAIM_WINDOW_S);
    const counts = await Promise.all([
      attempts.penalty(`user:${user.id}`),
      attempts.penalty(`address:${request.ip}`),
    ]);
    if (counts.some((count) => count.consumedPoints > CLAIM_ATTEMPTS)) {
      throw tooManyRequests('Too many setup code attempts. Try again in a few minutes.');
    }
    const outcome = await claimOwnership(ctx.database.db, user.id, code);
    if (outcome === 'already-owned') throw conflict(OWNER_ALREADY_CLAIMED_MESSAGE);
    if (outcome === 'wrong-code') {
      request.log.warn({ userId: user.id }, 'wrong owner setup code');
      throw badRequest(WRONG_SETUP_CODE_MESSAGE);
    }
    await removeSetupCodeFile(ctx.config.dataDir);
    request.log.warn({ userId: user.id }, 'server claimed: this user is now its owner (superadmin)');
    return toUserView({ ...user, subscriptionTier: 'superadmin' });
  });
}
