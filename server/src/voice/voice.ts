import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { FloorStore } from '../floor/floor-store.js';
import type { Bus } from '../realtime/bus.js';
import { createEmbeddedProvider } from './embedded-provider.js';
import { createLivekitProvider, type LivekitProvider } from './livekit/livekit-provider.js';
import { registerLivekitWebhook } from './livekit/livekit-webhook-route.js';
import { pinnedVoiceEffects } from './pinned-voice-effects.js';
import type { EmbeddedSfu } from './sfu/embedded-sfu.js';
import { registerSfuRoutes } from './sfu/sfu-routes.js';
import { admitFromDatabase } from './sfu-admission.js';
import { registerVoiceTokenRoute } from './token-route.js';
import { registerUsageSessionRoutes } from './usage-session-routes.js';
import type { VoiceAccessDeps } from './voice-access.js';
import type { VoiceProvider } from './voice-provider.js';

export interface Voice {
  /**
   * Whichever server carries channel audio. Admin mute, removal and channel deletion tell it inside
   * their transaction, so a voice server that cannot comply refuses the change (VoiceServerError).
   */
  provider: VoiceProvider;
  /** The built-in SFU when it carries the audio; null with LiveKit. */
  sfu: EmbeddedSfu | null;
  /** LiveKit's own side (its door, rooms and participant list) when it carries the audio. */
  livekit: LivekitProvider | null;
  /** What deciding who may be in a voice room reads (see voice-access.ts). */
  access: VoiceAccessDeps;
}

/**
 * Channel voice: the built-in SFU by default, LiveKit with VOICE_PROVIDER=livekit. With the built-in
 * SFU pinned to one of several instances (VOICE_PINNED), an admin's change may land on an instance
 * that does not hold the room, so the provider's effects go over the bus to every instance's SFU;
 * that subscription is live before compose() returns, so before any request is served.
 */
export async function createVoice(
  config: Config,
  db: Database,
  bus: Bus,
  log: FastifyBaseLogger,
  floors?: FloorStore,
  sosArmed?: VoiceAccessDeps['sosArmed'],
): Promise<Voice> {
  const access: VoiceAccessDeps = { db, billing: config.billing, floors, sosArmed };
  if (config.voice.provider === 'livekit') {
    const livekit = createLivekitProvider(config, access);
    return { provider: livekit, sfu: null, livekit, access };
  }
  const embedded = createEmbeddedProvider(config, log, admitFromDatabase(access));
  if (!config.voice.pinned) return { ...embedded, livekit: null, access };
  return {
    provider: await pinnedVoiceEffects(embedded.provider, bus, log),
    sfu: embedded.sfu,
    livekit: null,
    access,
  };
}

/**
 * The usage session and token endpoints (both doors of the voice-access rule) and the provider's own
 * routes: `/rtc` (built-in) or LiveKit's webhook.
 */
export function registerVoice(app: FastifyInstance): void {
  const { config } = app.ctx;
  const { provider, sfu, livekit } = app.ctx.voice;
  registerUsageSessionRoutes(app);
  registerVoiceTokenRoute(app, provider);
  if (sfu) registerSfuRoutes(app, sfu);
  else if (livekit?.configured)
    registerLivekitWebhook(app, livekit, {
      apiKey: livekit.apiKey,
      apiSecret: livekit.apiSecret,
      roomPrefix: config.voice.livekit.roomPrefix,
    });
}
