import type { FastifyInstance, FastifyReply } from 'fastify';
import * as oidc from 'openid-client';
import { z } from 'zod';
import { API_PATHS } from '../../../protocol/api-paths.js';
import { currentUser } from './require-user.js';
import type { RelyingParty } from './relying-party.js';
import { safeReturnTo } from './return-to.js';
import {
  createSession,
  deleteSession,
  findSession,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  sessionIdOf,
} from './session-store.js';
import { upsertUserFromClaims, type IdentityClaims } from './user-accounts.js';
import { toUserView } from './user-view.js';
import { unauthorized } from '../http/errors.js';
import { INVITE_URL_PARAMS } from '../../../protocol/invites.js';
import { INVITE_AUTH_PARAM } from './provider/built-in-provider.js';

const LOGIN_COOKIE = 'chirp_login';
const LOGIN_TTL_S = 10 * 60;

/** What travels with the browser through the provider, in a signed HttpOnly cookie. */
const loginStateSchema = z.object({
  state: z.string(),
  nonce: z.string(),
  verifier: z.string(),
  returnTo: z.string(),
});

const claimsSchema = z
  .object({
    sub: z.string().min(1),
    email: z.string().optional(),
    // Some providers send the claim as a string; only a real "yes" counts.
    email_verified: z
      .union([z.boolean(), z.string()])
      .optional()
      .transform((v) => v === true || v === 'true'),
    given_name: z.string().optional(),
    family_name: z.string().optional(),
    name: z.string().optional(),
    picture: z.string().optional(),
  })
  .loose();

/**
 * With the built-in provider, an invite link's token travels to the sign-in form so an invitee may
 * create an account on an invite-only server (SIGNUP=invite). External providers never see it.
 */
function inviteHintFor(builtIn: boolean) {
  return (returnTo: string): Record<string, string> => {
    if (!builtIn) return {};
    const token = new URL(returnTo, 'http://return.to').searchParams.get(INVITE_URL_PARAMS.token);
    return token ? { [INVITE_AUTH_PARAM]: token } : {};
  };
}

export function registerSignInRoutes(app: FastifyInstance, rp: RelyingParty): void {
  const { config, database } = app.ctx;
  const secure = config.publicUrl.protocol === 'https:';
  const inviteHint = inviteHintFor(config.oidc.builtIn);
  const cookieBase = { httpOnly: true, sameSite: 'lax' as const, secure, path: '/' };

  const failure = (reply: FastifyReply, status: number) =>
    reply
      .status(status)
      .type('text/html; charset=utf-8')
      .send(
        '<!doctype html><meta charset="utf-8"><title>Sign-in failed</title>' +
          `<p>Sign-in failed or expired. <a href="${API_PATHS.login}">Try again</a></p>`,
      );

  const signInLimit = { public: true, rateLimit: { max: 60, timeWindow: '1 minute' } };
  /** The session is gone for REST at once, and its open sockets (and voice) close on every instance. */
  const endSession = async (token: string, userId?: string) => {
    await deleteSession(database.db, token);
    await app.ctx.sockets.endSession(sessionIdOf(token), userId);
  };

  app.get(API_PATHS.login, { config: signInLimit }, async (request, reply) => {
    const query = z.object({ returnTo: z.string().optional() }).safeParse(request.query);
    const returnTo = safeReturnTo(query.success ? query.data.returnTo : undefined, config.publicUrl);
    const configuration = await rp.configuration();
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: rp.callbackUrl.href,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...inviteHint(returnTo),
    });
    reply.setCookie(LOGIN_COOKIE, JSON.stringify({ state, nonce, verifier, returnTo }), {
      ...cookieBase,
      path: API_PATHS.callback,
      maxAge: LOGIN_TTL_S,
      signed: true,
    });
    return reply.redirect(url.href, 302);
  });

  app.get(API_PATHS.callback, { config: signInLimit }, async (request, reply) => {
    const raw = request.cookies[LOGIN_COOKIE];
    const unsigned = raw ? request.unsignCookie(raw) : undefined;
    // The login cookie is single-use: a replayed callback finds nothing to complete.
    reply.clearCookie(LOGIN_COOKIE, { ...cookieBase, path: API_PATHS.callback });
    if (!unsigned?.valid || !unsigned.value) {
      request.log.warn('sign-in callback without a valid login cookie (expired, replayed or forged)');
      return failure(reply, 400);
    }
    let login: z.infer<typeof loginStateSchema>;
    try {
      login = loginStateSchema.parse(JSON.parse(unsigned.value));
    } catch {
      return failure(reply, 400);
    }
    const configuration = await rp.configuration();
    const currentUrl = new URL(request.url, rp.callbackUrl);
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: login.verifier,
        expectedState: login.state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      request.log.warn({ err: error }, 'sign-in callback refused');
      return failure(reply, 400);
    }
    const claims = claimsSchema.parse(tokens.claims()) as IdentityClaims;
    const user = await upsertUserFromClaims(
      database.db,
      configuration.serverMetadata().issuer,
      claims,
      config.superadminEmails,
    );
    // A new session id at every sign-in; the previous one (if any) is ended.
    const previous = request.cookies[SESSION_COOKIE];
    if (previous) await endSession(previous, (await findSession(database.db, previous))?.user.id);
    const token = await createSession(database.db, user.id, tokens.id_token);
    reply.setCookie(SESSION_COOKIE, token, { ...cookieBase, maxAge: SESSION_TTL_MS / 1000 });
    request.log.info({ userId: user.id }, 'signed in');
    return reply.redirect(login.returnTo, 302);
  });

  app.get(API_PATHS.logout, { config: { public: true } }, async (request, reply) => {
    // The spec's Logout is a navigation, and SameSite=Lax sends the cookie on any top-level GET: a
    // link or redirect from another site must not sign the user out. Browsers name where a
    // navigation came from; our own button is same-origin, a typed address or bookmark is "none".
    const site = request.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') {
      request.log.info({ site }, 'logout from another site ignored');
      return reply.redirect('/', 303);
    }
    const token = request.cookies[SESSION_COOKIE];
    let idToken: string | null = null;
    if (token) {
      const session = await findSession(database.db, token);
      idToken = session?.idToken ?? null;
      await endSession(token, session?.user.id);
    }
    reply.clearCookie(SESSION_COOKIE, cookieBase);
    const home = new URL('/', config.publicUrl).href;
    try {
      const configuration = await rp.configuration();
      if (configuration.serverMetadata().end_session_endpoint) {
        const params: Record<string, string> = { post_logout_redirect_uri: home, client_id: config.oidc.clientId };
        if (idToken) params.id_token_hint = idToken;
        return reply.redirect(oidc.buildEndSessionUrl(configuration, params).href, 302);
      }
    } catch (error) {
      request.log.warn({ err: error }, 'provider unreachable at logout; signed out locally');
    }
    return reply.redirect('/', 302);
  });

  // Public so that the spec's signed-out answer stays exactly 401 {message:"Unauthorized"} from here.
  app.get(API_PATHS.authUser, { config: { public: true } }, async (request) => {
    const user = await currentUser(request);
    if (!user) throw unauthorized();
    return toUserView(user);
  });
}
