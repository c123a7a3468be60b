import type { Config } from './config/config.js';
import type { DatabaseHandle } from './db/database.js';
import type { PresenceReader } from './presence/presence-reader.js';
import type { ChannelEvents } from './realtime/channel-events.js';
import type { Realtime } from './realtime/realtime.js';
import type { VoiceProvider } from './voice/voice-provider.js';

/** What every feature of the server may use; decorated on the Fastify instance as `app.ctx`. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  /** Live presence for REST answers; the socket layer replaces the all-offline default. */
  presence: PresenceReader;
  /** Where REST announces channel changes; the socket layer replaces the silent default. */
  channelEvents: ChannelEvents;
  /**
   * Whichever server carries channel audio. Admin mute, removal and channel deletion tell it inside
   * their transaction, so a voice server that cannot comply refuses the change (VoiceServerError).
   */
  voice: VoiceProvider;
  /** The `/ws` layer (bus, local sockets, message router); set when the app registers it. */
  realtime?: Realtime;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
