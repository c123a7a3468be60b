import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { z } from 'zod';
import { API_PATHS } from '../../../../protocol/api-paths.js';
import { BUILT_IN_CLIENT_ID } from '../../config/config.js';
import { builtInClientSecret } from '../relying-party.js';
import { findLocalAccount, signInOrRegister } from './local-accounts.js';
import { databaseAdapter } from './oidc-adapter.js';
import { cspDirectives } from '../../http/security-headers.js';
import { AUTO_LOGOUT_SCRIPT_HASH, renderAutoLogoutPage, renderSignInPage } from './sign-in-page.js';
import { decideSignup } from './signup-policy.js';
import { loadSigningKey } from './signing-key.js';

export const PROVIDER_PREFIX = '/oidc';

const signInFormSchema = z.object({
  name: z.string().max(100).default(''),
  email: z.email().max(254),
  password: z.string().min(1).max(200),
});

const MESSAGES = {
  'wrong-credentials': 'Wrong email or password',
  'name-required': 'Please enter your name to create your account',
  'password-too-short': 'Passwords are at least 8 characters',
  invalid: 'Please enter a valid email and password',
  'signup-closed':
    'This Chirp server is invite-only: open an invite link from a member to create your account',
} as const;

/**
 * Requests per minute per client address. A sign-in is about two authorization requests, one form
 * view and one form post; these leave room for a household behind one address.
 */
const LIMITS = {
  authorize: { max: 60, timeWindow: 60_000 },
  provider: { max: 300, timeWindow: 60_000 },
  interaction: { max: 120, timeWindow: 60_000 },
  signInForm: { max: 60, timeWindow: 60_000 },
} as const;

/** The authorization parameter that carries an invite token to the sign-in form (SIGNUP=invite). */
export const INVITE_AUTH_PARAM = 'invite';

/**
 * The built-in OpenID Connect provider, mounted under /oidc of this same server. The app signs in
 * against it with exactly the code it uses for an external provider.
 */
export async function registerBuiltInProvider(app: FastifyInstance): Promise<void> {
  const { config, database } = app.ctx;
  const { db } = database;
  const publicUrl = config.publicUrl;
  const signingKey = await loadSigningKey(db);

  const cookieKey = createHmac('sha256', config.sessionSecret)
    .update('chirp oidc cookies')
    .digest('base64url');

  const configuration: Configuration = {
    adapter: databaseAdapter(db),
    clients: [
      {
        client_id: BUILT_IN_CLIENT_ID,
        client_secret: builtInClientSecret(config.sessionSecret),
        redirect_uris: [new URL(API_PATHS.callback, publicUrl).href],
        post_logout_redirect_uris: [new URL('/', publicUrl).href],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [cookieKey] },
    pkce: { methods: ['S256'], required: () => true },
    extraParams: [INVITE_AUTH_PARAM],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    // ID tokens carry the profile so the app needs no userinfo round trip.
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx: KoaContextWithOIDC, form: string) => {
          ctx.type = 'html';
          ctx.body = renderAutoLogoutPage(form);
        },
      },
    },
    interactions: {
      url: (_ctx, interaction) => `${PROVIDER_PREFIX}/interaction/${interaction.uid}`,
    },
    // The app is the provider's only client and is first-party: no consent screen.
    loadExistingGrant: async (ctx) => {
      const { session, client, provider } = ctx.oidc;
      if (!session?.accountId || !client) return undefined;
      const grantId = session.grantIdFor(client.clientId);
      if (grantId) {
        const existing = await provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    findAccount: async (_ctx, sub) => {
      const account = await findLocalAccount(db, sub);
      if (!account) return undefined;
      const [given, ...rest] = account.name.split(/\s+/);
      return {
        accountId: account.id,
        claims: () => ({
          sub: account.id,
          email: account.email,
          email_verified: false,
          name: account.name,
          given_name: given,
          family_name: rest.join(' ') || undefined,
        }),
      };
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><meta charset="utf-8"><title>Sign-in error</title><p>Sign-in could not continue (${String(
        out.error,
      ).replace(/[^\w .-]/g, '')}). <a href="/">Back to Chirp</a></p>`;
    },
    ttl: {
      // A session nobody signed in to (it only carried a form's state) is kept no longer than an
      // interaction; a signed-in one for 14 days.
      Session: (_ctx, session) => (session.accountId ? 14 * 24 * 3600 : 3600),
      Interaction: 3600,
      Grant: 14 * 24 * 3600,
      AccessToken: 600,
      IdToken: 3600,
      AuthorizationCode: 60,
    },
  };

  const provider = new Provider(config.oidc.issuerUrl, configuration);
  const secure = publicUrl.protocol === 'https:';
  provider.proxy = secure;
  provider.on('server_error', (_ctx, error) =>
    app.log.error({ err: error }, 'oidc provider error'),
  );
  provider.use(skipEndSessionWithoutSignIn(provider, new URL('/', publicUrl).href));

  const callback = provider.callback();
  /**
   * The provider always sees itself at the public address, however the request arrived (directly,
   * through a proxy, or over loopback from this server's own token call).
   */
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const original = req.url ?? '/';
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = original;
    req.url = original.slice(PROVIDER_PREFIX.length) || '/';
    req.headers.host = publicUrl.host;
    delete req.headers['x-forwarded-host'];
    if (secure) req.headers['x-forwarded-proto'] = 'https';
    else delete req.headers['x-forwarded-proto'];
    void callback(req, res);
  };

  const slowdown = app.ctx.signInSlowdown;

  /** SIGNUP=invite: an invitee, or the owner-to-be while the server still awaits its owner. */
  const signupPolicy = (invite: unknown, address: string, log: FastifyBaseLogger) => async () => {
    const decision = await decideSignup(app.ctx.signupFacts, app.ctx.counters, config.signup, {
      invite,
      address,
    });
    if (decision === 'unowned-cap')
      log.warn('sign-up refused: this address already made its accounts on the unowned server');
    return decision === 'allowed';
  };

  const showForm = (
    reply: FastifyReply,
    uid: string,
    status: number,
    values: { error?: string; name?: string; email?: string },
  ) =>
    reply
      .status(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(renderSignInPage({ action: `${PROVIDER_PREFIX}/interaction/${uid}`, ...values }));

  const finishIfConsent = async (request: FastifyRequest, reply: FastifyReply) => {
    const details = await provider.interactionDetails(request.raw, reply.raw);
    if (details.prompt.name !== 'consent') return { details, redirected: false };
    const grant = new provider.Grant({
      clientId: BUILT_IN_CLIENT_ID,
      accountId: details.session?.accountId ?? '',
    });
    grant.addOIDCScope('openid email profile');
    const grantId = await grant.save();
    const to = await provider.interactionResult(
      request.raw,
      reply.raw,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
    await reply.redirect(to, 303);
    return { details, redirected: true };
  };

  // The provider protects its own forms (interaction cookie and uid), and its token endpoint is
  // called server to server: no same-origin Origin to require here.
  const providerAccess = { crossOrigin: true };

  app.get<{ Params: { uid: string } }>(
    `${PROVIDER_PREFIX}/interaction/:uid`,
    { config: { ...providerAccess, rateLimit: LIMITS.interaction } },
    async (request, reply) => {
      const { details, redirected } = await finishIfConsent(request, reply);
      if (redirected) return reply;
      return showForm(reply, details.uid, 200, {});
    },
  );

  app.post<{ Params: { uid: string } }>(
    `${PROVIDER_PREFIX}/interaction/:uid`,
    { config: { ...providerAccess, rateLimit: LIMITS.signInForm } },
    async (request, reply) => {
      const details = await provider.interactionDetails(request.raw, reply.raw);
      const parsed = signInFormSchema.safeParse(request.body);
      const raw = (request.body ?? {}) as Record<string, unknown>;
      const echo = {
        name: typeof raw.name === 'string' ? raw.name : '',
        email: typeof raw.email === 'string' ? raw.email : '',
      };
      if (!parsed.success)
        return showForm(reply, details.uid, 400, { ...echo, error: MESSAGES.invalid });
      const attempt = await slowdown.begin(parsed.data.email, request.ip);
      const outcome = await signInOrRegister(
        db,
        parsed.data,
        signupPolicy(details.params[INVITE_AUTH_PARAM], request.ip, request.log),
      );
      if (!outcome.ok) {
        await (outcome.reason === 'wrong-credentials' ? attempt.failed() : attempt.uncounted());
        request.log.info({ reason: outcome.reason }, 'built-in sign-in refused');
        const status = outcome.reason === 'signup-closed' ? 403 : 401;
        return showForm(reply, details.uid, status, { ...echo, error: MESSAGES[outcome.reason] });
      }
      await attempt.succeeded();
      if (outcome.created)
        request.log.info({ accountId: outcome.account.id }, 'local account created');
      const to = await provider.interactionResult(
        request.raw,
        reply.raw,
        { login: { accountId: outcome.account.id } },
        { mergeWithLastSubmission: false },
      );
      return reply.redirect(to, 303);
    },
  );

  // Everything else under /oidc is the provider's own (discovery, authorize, token, jwks, logout).
  // It reads the raw request body itself, so the request is handed over before Fastify parses it.
  const handOver = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    void reply.hijack();
    forward(request.raw, reply.raw);
    done();
  };
  // Limited before the hand-over (a hijacked reply can no longer answer 429). Each family has its
  // own counter key; the server's own token calls carry the internal key and are not limited.
  const limited = (family: keyof typeof LIMITS) =>
    app.rateLimit({ ...LIMITS[family], keyGenerator: (request) => `${family}:${request.ip}` });
  const families: [string, keyof typeof LIMITS][] = [
    [PROVIDER_PREFIX, 'provider'],
    [`${PROVIDER_PREFIX}/*`, 'provider'],
    // Authorization requests create provider rows (interactions, sessions): the tightest limit.
    [`${PROVIDER_PREFIX}/auth`, 'authorize'],
    [`${PROVIDER_PREFIX}/auth/*`, 'authorize'],
  ];
  for (const [url, family] of families) {
    app.route({
      method: ['GET', 'POST', 'HEAD', 'OPTIONS'],
      url,
      config: providerAccess,
      helmet: {
        contentSecurityPolicy: {
          directives: cspDirectives(publicUrl, config.dev, [AUTO_LOGOUT_SCRIPT_HASH]),
        },
      },
      onRequest: [limited(family), handOver],
      handler: async () => undefined,
    });
  }
}

/**
 * The provider answers an end-session request by storing a session (for 14 days) to hold its logout
 * form's state, even for a visitor who has no provider session: every unauthenticated `GET
 * /oidc/session/end` would add a row. Someone who is not signed in at the provider has nothing to
 * end, so they go straight home — as a signed-in person does once their logout is confirmed.
 */
function skipEndSessionWithoutSignIn(
  provider: Provider,
  home: string,
): Parameters<Provider['use']>[0] {
  return async (ctx, next) => {
    if (ctx.path === '/session/end' && (ctx.method === 'GET' || ctx.method === 'POST')) {
      // Reads the session cookie; only the provider's own session handler ever stores a session.
      const session = await provider.Session.get(ctx);
      if (!session.accountId) {
        ctx.redirect(home);
        ctx.status = 303;
        return;
      }
    }
    await next();
  };
}
