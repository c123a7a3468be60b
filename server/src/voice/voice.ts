import type { FastifyInstance } from 'fastify';
import { endSessionsForClosedVoice } from '../usage/usage-sweeper.js';
import { createEmbeddedProvider } from './embedded-provider.js';
import { createLivekitProvider } from './livekit/livekit-provider.js';
import { registerLivekitWebhook } from './livekit/livekit-webhook-route.js';
import { pinnedVoiceEffects } from './pinned-voice-effects.js';
import { registerVoiceTokenRoute } from './token-route.js';
import type { VoiceProvider } from './voice-provider.js';

const channelIdOf = (roomName: string) =>
  Number(/^channel-(\d+)$/.exec(roomName)?.[1] ?? Number.NaN);

/**
 * Channel voice: the built-in SFU by default, LiveKit with VOICE_PROVIDER=livekit. Registers the
 * token endpoint and the provider's own routes, and offers the provider as `app.ctx.voice`, which
 * admin mute, removal and channel deletion tell inside their transactions.
 */
export function registerVoice(app: FastifyInstance): VoiceProvider {
  const { config, database } = app.ctx;
  let provider: VoiceProvider;
  if (config.voice.provider === 'livekit') {
    provider = createLivekitProvider(config);
    if (provider.configured)
      registerLivekitWebhook(app, {
        apiKey: provider.apiKey,
        apiSecret: provider.apiSecret,
        roomPrefix: config.voice.livekit.roomPrefix,
      });
  } else {
    const embedded = createEmbeddedProvider(app, config);
    provider = embedded.provider;
    // Usage sessions end when the voice connection they metered ends (DESIGN §3 "Usage metering").
    const joinedAt = new Map<string, Date>();
    embedded.sfu.on('participantJoined', (event) => joinedAt.set(event.identity, new Date()));
    embedded.sfu.on('participantLeft', (event) => {
      const connectedAt = joinedAt.get(event.identity) ?? new Date();
      joinedAt.delete(event.identity);
      const channelId = channelIdOf(event.roomName);
      if (Number.isNaN(channelId)) return;
      endSessionsForClosedVoice(database.db, event.userId, channelId, connectedAt).catch(
        (error: unknown) =>
          app.log.error({ err: error }, 'closing usage sessions after voice left failed'),
      );
    });
  }
  registerVoiceTokenRoute(app, provider);
  app.ctx.voice = provider;
  const bus = app.ctx.realtime?.bus;
  if (config.voice.provider === 'embedded' && config.voice.pinned && bus) {
    // Effects reach whichever instance holds the rooms; ready before the server takes requests.
    const local = provider;
    app.addHook('onReady', async () => {
      app.ctx.voice = await pinnedVoiceEffects(local, bus, app.log);
    });
  }
  return provider;
}
