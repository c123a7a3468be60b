import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { MAX_VOICE_SIGNAL_BYTES } from '../../protocol/voice-signalling.js';
import { registerAccountRoutes } from './account/account-routes.js';
import { registerBuiltInProvider } from './auth/provider/built-in-provider.js';
import { createRelyingParty } from './auth/relying-party.js';
import { registerSignInRoutes } from './auth/sign-in-routes.js';
import { registerBlockingRoutes } from './blocking/blocking-routes.js';
import type { CallTimings } from './calls/call-service.js';
import { registerCalls } from './calls/calls.js';
import { registerChannelRoutes } from './channels/channels-routes.js';
import type { Config } from './config/config.js';
import { registerServerConfigRoute } from './config/server-config-route.js';
import type { DatabaseHandle } from './db/database.js';
import { registerHealthRoutes } from './health/health-routes.js';
import { registerErrorHandler, registerJsonNotFound } from './http/error-handler.js';
import { registerRequestIdHeader, requestIdOptions } from './http/request-id.js';
import { registerSameOriginCheck } from './http/same-origin.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerContactRoutes } from './contacts/contacts-routes.js';
import { registerInviteRoutes } from './invites/invites-routes.js';
import { registerMetrics } from './metrics/metrics.js';
import { compose } from './compose.js';
import { registerWsRoute } from './realtime/ws-route.js';
import { registerUsage } from './usage/usage.js';
import { registerUserRoutes } from './users/users-routes.js';
import { registerVoice } from './voice/voice.js';
import { registerClientAssets } from './web/client-assets.js';

export interface BuildAppOptions {
  config: Config;
  database: DatabaseHandle;
  /** Serve the React client (production build, or Vite in dev). Off for API-only tests. */
  serveClient?: boolean;
  /** Pino logger options; tests pass `false` to keep output quiet. */
  logger?: boolean | object;
  /** Shorter call timers for tests (a 30 s ring makes a slow test). */
  callTimings?: Partial<CallTimings>;
}

const isLoopback = (ip: string) => ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1';

/** Secrets and cookies never reach the log. */
const REDACT = ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'];

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel, redact: REDACT },
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    ...requestIdOptions(config.trustProxy),
  });
  // Everything routes share exists before the first route registers; routes only read it.
  const composition = compose({ config, database, log: app.log, callTimings: options.callTimings });
  app.decorate('ctx', composition.ctx);
  app.addHook('onClose', () => composition.close());

  registerErrorHandler(app);
  registerRequestIdHeader(app);
  await app.register(cookie, { secret: config.sessionSecret });
  await app.register(formbody);
  await app.register(rateLimit, {
    global: false,
    // This machine's own direct requests (local tests, health checks) are not limited; traffic
    // through a reverse proxy carries X-Forwarded-For and is limited per client (TRUST_PROXY).
    allowList: (request) => isLoopback(request.ip) && request.headers['x-forwarded-for'] === undefined,
  });
  // Frames over 256 KB (voice SDP grows with talkers) close the socket; /ws drops messages over 16 KB.
  await app.register(websocket, { options: { maxPayload: MAX_VOICE_SIGNAL_BYTES } });
  await registerSecurityHeaders(app, config.publicUrl, config.dev);
  registerSameOriginCheck(app, config.publicUrl);

  registerMetrics(app);
  registerHealthRoutes(app);
  registerServerConfigRoute(app);
  const relyingParty = createRelyingParty(config, () => {
    const address = app.server.address();
    return typeof address === 'object' && address ? address.port : config.port;
  });
  registerSignInRoutes(app, relyingParty);
  if (config.oidc.builtIn) await registerBuiltInProvider(app);

  // Feature routes: one line per feature folder.
  registerWsRoute(app);
  registerCalls(app);
  registerUserRoutes(app);
  registerChannelRoutes(app);
  registerContactRoutes(app);
  registerBlockingRoutes(app);
  registerInviteRoutes(app);
  registerUsage(app);
  registerVoice(app);
  registerAccountRoutes(app);
  // (end of feature routes)

  if (options.serveClient ?? true) await registerClientAssets(app, config.dev);
  else registerJsonNotFound(app);
  return app;
}
