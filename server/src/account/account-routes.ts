import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ACCOUNT_MESSAGES,
  changeNameBodySchema,
  changePasswordBodySchema,
  deleteAccountBodySchema,
  type Account,
} from '../../../protocol/account.js';
import { API_PATHS } from '../../../protocol/api-paths.js';
import type { MessageResponse } from '../../../protocol/responses.js';
import { localAccountOf, passwordMatches, setLocalPassword } from '../auth/provider/account-maintenance.js';
import type { LocalAccount } from '../auth/provider/local-accounts.js';
import { requireUser } from '../auth/require-user.js';
import { SESSION_COOKIE, sessionIdOf, type SessionUser } from '../auth/session-store.js';
import { badRequest, conflict, HttpError } from '../http/errors.js';
import { isOnlyOwner } from '../ownership/last-owner.js';
import { prepareOwnerSetup } from '../ownership/owner-setup-at-start.js';
import { channelsGoingWith } from '../users/delete-user.js';
import { changeOwnName } from './change-name.js';
import { deleteAccount } from './delete-account.js';

/** A cap on requests that check a password, besides the per-account slow-down below. */
const guessLimit = { rateLimit: { max: 10, timeWindow: '1 minute' } };

const wrongPassword = () => new HttpError(403, ACCOUNT_MESSAGES.wrongPassword);

/**
 * Checks the signed-in user's password through the same per-account (and per-address) slow-down as
 * the sign-in page: guesses through a stolen session count against the account like guesses at the
 * form, and are answered after the same delays. A right password on an account nobody is attacking
 * is never slowed.
 */
async function checkPassword(request: FastifyRequest, account: LocalAccount, password: string | undefined): Promise<boolean> {
  if (password === undefined) return false; // no password given: nothing was guessed
  const attempt = await request.server.ctx.signInSlowdown.begin(account.email, request.ip);
  const matches = await passwordMatches(account, password);
  await (matches ? attempt.succeeded() : attempt.failed());
  return matches;
}

async function requirePasswordAccount(request: FastifyRequest, user: SessionUser): Promise<LocalAccount> {
  const account = await localAccountOf(request.server.ctx.database.db, user);
  if (!account) throw badRequest(ACCOUNT_MESSAGES.notPasswordAccount);
  return account;
}

/**
 * The signed-in user's own account (Settings): what it is, their name, a password change for built-in
 * accounts (current password required), and deleting it with everything that is theirs.
 */
export function registerAccountRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  app.get(API_PATHS.account, async (request): Promise<Account> => {
    const user = await requireUser(request);
    const db = ctx.database.db;
    const account = await localAccountOf(db, user);
    const created = await channelsGoingWith(db, user.id);
    return {
      passwordSignIn: account !== undefined,
      createdChannels: created.map((c) => ({ id: c.id, name: c.name, memberCount: c.members })),
    };
  });

  // Their own name; channel members see it at their next members poll (5 s), their other devices at once.
  app.put(API_PATHS.accountName, async (request) => {
    const body = changeNameBodySchema.parse(request.body);
    const user = await requireUser(request);
    const updated = await changeOwnName(ctx.database.db, user, body);
    await ctx.sockets.accountChanged(user.id);
    request.log.info({ userId: user.id }, 'name changed');
    return updated;
  });

  app.post(API_PATHS.accountPassword, { config: guessLimit }, async (request) => {
    const body = changePasswordBodySchema.parse(request.body);
    const user = await requireUser(request);
    const account = await requirePasswordAccount(request, user);
    if (!(await checkPassword(request, account, body.currentPassword))) {
      request.log.info({ userId: user.id }, 'password change refused: wrong current password');
      throw wrongPassword();
    }
    // This device stays signed in; every other session of the account ends.
    const token = request.cookies[SESSION_COOKIE];
    const kept = token ? sessionIdOf(token) : undefined;
    await setLocalPassword(ctx.database.db, account, user.id, body.newPassword, kept);
    // Their sockets and voice end too, on every instance (a REST 401 alone leaves them open).
    await ctx.sockets.endUser(user.id, { reason: 'signed_out', ...(kept ? { exceptSessionId: kept } : {}) });
    request.log.info({ userId: user.id }, 'password changed');
    return { message: ACCOUNT_MESSAGES.passwordChanged } satisfies MessageResponse;
  });

  app.delete(API_PATHS.account, { config: guessLimit }, async (request, reply) => {
    const body = deleteAccountBodySchema.parse(request.body ?? {});
    const user = await requireUser(request);
    const account = await localAccountOf(ctx.database.db, user);
    if (account && !(await checkPassword(request, account, body.password))) throw wrongPassword();
    if (await isOnlyOwner(ctx.database.db, user.id)) throw conflict(ACCOUNT_MESSAGES.onlyOwner);
    const { database, transmissions, sockets, channelEvents } = ctx;
    await deleteAccount({ db: database.db, transmissions, sockets, channelEvents }, user.id);
    // Two owners deleting themselves at once can both pass the check: never leave it unclaimable.
    if (user.subscriptionTier === 'superadmin') await prepareOwnerSetup(ctx.database.db, ctx.config.dataDir, request.log, ctx.operatorNotice);
    request.log.info({ userId: user.id }, 'account deleted by its owner');
    const secure = ctx.config.publicUrl.protocol === 'https:';
    reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
    return { message: ACCOUNT_MESSAGES.accountDeleted } satisfies MessageResponse;
  });
}
