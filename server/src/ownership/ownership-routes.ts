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
import type { Counters } from '../limits/counters.js';
import { badRequest, conflict, tooManyRequests } from '../http/errors.js';
import { removeSetupCodeFile } from './owner-setup-at-start.js';
import { claimOwnership, hasOwner } from './owner-store.js';

/**
 * Wrong codes per quarter hour: ten per person; an address (a household, an office, every user
 * behind a proxy) gets far more. 100-bit codes need far more guesses than either allows.
 */
const USER_FAILURES = 10;
const ADDRESS_FAILURES = 100;
const CLAIM_WINDOW_S = 15 * 60;
const TOO_MANY = 'Too many setup code attempts. Try again in a few minutes.';

/**
 * Counts a claim as a failure before the code is checked (so parallel guesses each get their own
 * place in the count); a correct code gives its points back. Refused unchecked: a person past their
 * own failures, or a person who has failed before from an address past its cap. A person who has not
 * been guessing is always checked, so other people's wrong guesses — from the owner's own address
 * too — never keep the owner from claiming with the right code.
 */
async function countClaimAttempt(counters: Counters, userId: string, address: string) {
  const attempts = counters.counter('setup-claim', CLAIM_WINDOW_S);
  const userKey = `user:${userId}`;
  const addressKey = `address:${address}`;
  const [byUser, byAddress] = await Promise.all([attempts.penalty(userKey), attempts.penalty(addressKey)]);
  const giveBack = async () => {
    await Promise.all([attempts.reward(userKey), attempts.reward(addressKey)]);
  };
  const hasGuessed = byUser.consumedPoints > 1;
  const refused =
    byUser.consumedPoints > USER_FAILURES || (hasGuessed && byAddress.consumedPoints > ADDRESS_FAILURES);
  return { refused, giveBack };
}

export function registerOwnershipRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  app.get(API_PATHS.setup, async () => {
    return { ownerClaimed: await hasOwner(ctx.database.db) } satisfies SetupStatusResponse;
  });

  app.post(API_PATHS.setupClaim, async (request) => {
    const user = await requireUser(request);
    const { code } = claimOwnershipBodySchema.parse(request.body);
    const attempt = await countClaimAttempt(ctx.counters, user.id, request.ip);
    if (attempt.refused) {
      // Not checked, so not a failure of its own: the count stays what the checked guesses made it.
      await attempt.giveBack();
      throw tooManyRequests(TOO_MANY);
    }
    const outcome = await claimOwnership(ctx.database.db, user.id, code);
    if (outcome !== 'wrong-code') await attempt.giveBack();
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
