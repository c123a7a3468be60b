import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import type { Agent as HttpsAgent } from 'node:https';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { MAX_VOICE_SIGNAL_BYTES } from '../../protocol/voice-signalling.js';
import { isInternalRequest } from './auth/internal-request.js';
import { registerAuthenticationGate } from './auth/authentication-gate.js';
import { registerAccountRoutes } from './account/account-routes.js';
import { registerBuiltInProvider } from './auth/provider/built-in-provider.js';
import { createRelyingParty } from './auth/relying-party.js';
import { registerSignInRoutes } from './auth/sign-in-routes.js';
import { registerBlockingRoutes } from './blocking/blocking-routes.js';
import type { CallTimings } from './calls/call-service.js';
import { registerCalls } from './calls/calls.js';
import { registerChannelRoutes } from './channels/channels-routes.js';
import { registerTransmissionRoutes } from './transmissions/transmissions-routes.js';
import type { Config } from './config/config.js';
import { registerServerConfigRoute } from './config/server-config-route.js';
import { registerLegalRoutes } from './legal/legal-routes.js';
import type { DatabaseHandle } from './db/database.js';
import { registerHealthRoutes } from './health/health-routes.js';
import { registerErrorHandler, registerJsonNotFound } from './http/error-handler.js';
import { registerControlCharacterGuard } from './http/control-characters.js';
import { registerRouteCatalog } from './http/route-catalog.js';
import { registerJsonOnlyApi } from './http/json-only.js';
import { registerRequestIdHeader, requestIdOptions } from './http/request-id.js';
import { registerSameOriginCheck } from './http/same-origin.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerPushPreferencesRoutes } from './push/push-preferences-routes.js';
import { registerPushRoutes } from './push/push-routes.js';
import { registerSosRoutes } from './sos/sos-routes.js';
import { registerContactRoutes } from './contacts/contacts-routes.js';
import { registerConversationRoutes } from './conversations/conversations-routes.js';
import { loggerOptions } from './logging/logger-options.js';
import { registerInviteRoutes } from './invites/invites-routes.js';
import { registerMetrics } from './metrics/metrics.js';
import { compose } from './compose.js';
import { registerWsRoute } from './realtime/ws-route.js';
import { sharedRouteLimitStore } from './limits/route-limit-store.js';
import { registerHousekeeping } from './housekeeping/housekeeping.js';
import { registerOwnership } from './ownership/ownership.js';
import { registerUsage } from './usage/usage.js';
import { registerUserRoutes } from './users/users-routes.js';
import { registerVoice } from './voice/voice.js';
import { voiceConnectSources } from './voice/livekit/livekit-rooms.js';
import { registerVoicePreferencesRoutes } from './voice-preferences/voice-preferences-routes.js';
import { registerClientAssets } from './web/client-assets.js';

export interface BuildAppOptions {
  config: Config;
  database: DatabaseHandle;
  /** Serve the React client (production build, or Vite in dev). Off for API-only tests. */
  serveClient?: boolean;
  /** The built client's folder (default dist/client); a test serves a small one of its own. */
  clientRoot?: string;
  /** Pino logger options; tests pass `false` to keep output quiet. */
  logger?: boolean | object;
  /** Production's logger, writing here instead of stdout (a test that reads the log). */
  logStream?: DestinationStream;
  /** Shorter call timers for tests (a 30 s ring makes a slow test). */
  callTimings?: Partial<CallTimings>;
  /** How the password slow-down waits; tests record the delays instead of waiting them out. */
  signInSleep?: (ms: number) => Promise<void>;
  /** The HTTPS agent for push services: a test trusts its local push service's certificate. */
  pushAgent?: HttpsAgent;
  /** Where plain notices for the operator go (the owner setup banner); standard error by default. */
  operatorNotice?: (text: string) => void;
}

/** A hop count becomes "trust the nearest n hops"; addresses and false pass through. */
const fastifyTrustProxy = (setting: Config['trustProxy']) =>
  typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logStream
      ? loggerOptions(config.logLevel, options.logStream)
      : (options.logger ?? loggerOptions(config.logLevel)),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 64 * 1024,
    ...requestIdOptions(config.trustProxy),
  });
  registerRouteCatalog(app);
  // Everything routes share exists before the first route registers; routes only read it.
  const composition = await compose({
    config,
    database,
    log: app.log,
    callTimings: options.callTimings,
    signInSleep: options.signInSleep,
    pushAgent: options.pushAgent,
    operatorNotice: options.operatorNotice,
  });
  app.decorate('ctx', composition.ctx);
  app.addHook('onClose', () => composition.close());

  registerErrorHandler(app);
  registerRequestIdHeader(app);
  await app.register(cookie, { secret: config.sessionSecret });
  await app.register(rateLimit, {
    global: false,
    // Counted in Redis or the database, so a limit holds across instances. No address is exempt: a
    // client on this machine is limited like any other (the server's own calls to its built-in
    // provider prove themselves with a key only this process knows).
    store: sharedRouteLimitStore(composition.ctx.counters),
    allowList: (request) => isInternalRequest(request, config.sessionSecret),
  });
  // Frames over 256 KB (voice SDP grows with talkers) close the socket; /ws drops messages over 16 KB.
  await app.register(websocket, { options: { maxPayload: MAX_VOICE_SIGNAL_BYTES } });
  await registerSecurityHeaders(app, config.publicUrl, config.dev, voiceConnectSources(config));
  // Order matters: refuse foreign origins, then guests, then non-JSON bodies — all before parsing.
  registerSameOriginCheck(app, config.publicUrl);
  registerAuthenticationGate(app);
  registerJsonOnlyApi(app);
  registerControlCharacterGuard(app);

  registerMetrics(app);
  registerHealthRoutes(app);
  registerServerConfigRoute(app);
  registerLegalRoutes(app);
  const relyingParty = createRelyingParty(config, () => {
    const address = app.server.address();
    return typeof address === 'object' && address ? address.port : config.port;
  });
  registerSignInRoutes(app, relyingParty);
  if (config.oidc.builtIn) {
    // Form bodies are parsed for the provider's sign-in form only, never for the API.
    await app.register(async (provider) => {
      await provider.register(formbody);
      await registerBuiltInProvider(provider);
    });
  }

  // Feature routes: one line per feature folder.
  registerWsRoute(app);
  registerCalls(app);
  registerUserRoutes(app);
  registerChannelRoutes(app);
  registerTransmissionRoutes(app);
  registerContactRoutes(app);
  registerConversationRoutes(app);
  registerBlockingRoutes(app);
  registerInviteRoutes(app);
  registerUsage(app);
  registerVoice(app);
  registerVoicePreferencesRoutes(app);
  await registerOwnership(app);
  registerHousekeeping(app);
  registerAccountRoutes(app);
  registerPushRoutes(app);
  registerPushPreferencesRoutes(app);
  registerSosRoutes(app);
  // (end of feature routes)

  if (options.serveClient ?? true) await registerClientAssets(app, config.dev, options.clientRoot);
  else registerJsonNotFound(app);
  return app;
}
