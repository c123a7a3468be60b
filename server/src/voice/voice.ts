import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import { createEmbeddedProvider } from './embedded-provider.js';
import { createLivekitProvider } from './livekit/livekit-provider.js';
import { registerLivekitWebhook } from './livekit/livekit-webhook-route.js';
import type { EmbeddedSfu } from './sfu/embedded-sfu.js';
import { registerSfuRoutes } from './sfu/sfu-routes.js';
import { admitFromDatabase } from './sfu-admission.js';
import { registerVoiceTokenRoute } from './token-route.js';
import type { VoiceProvider } from './voice-provider.js';

export interface Voice {
  provider: VoiceProvider;
  /** The built-in SFU when it carries the audio; null with LiveKit. */
  sfu: EmbeddedSfu | null;
}

/** Channel voice: the built-in SFU by default, LiveKit with VOICE_PROVIDER=livekit. */
export function createVoice(config: Config, db: Database, log: FastifyBaseLogger): Voice {
  if (config.voice.provider === 'livekit')
    return { provider: createLivekitProvider(config), sfu: null };
  return createEmbeddedProvider(config, log, admitFromDatabase(db));
}

/** The token endpoint and the provider's own routes: `/rtc` (built-in) or LiveKit's webhook. */
export function registerVoice(app: FastifyInstance): void {
  const { provider, sfu } = app.ctx.voice;
  registerVoiceTokenRoute(app, provider);
  if (sfu) registerSfuRoutes(app, sfu);
  else if (provider.configured) registerLivekitWebhook(app, provider.apiKey, provider.apiSecret);
}
