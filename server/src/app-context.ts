import type { CallService } from './calls/call-service.js';
import type { Config } from './config/config.js';
import type { DatabaseHandle } from './db/database.js';
import type { FloorService } from './floor/floor-service.js';
import type { Counters } from './limits/counters.js';
import type { SignInSlowdown } from './auth/provider/sign-in-slowdown.js';
import type { SignupFacts } from './auth/provider/signup-policy.js';
import type { PushNotifier } from './push/push-notifier.js';
import type { PushSender } from './push/push-sender.js';
import type { PresenceService } from './presence/presence-service.js';
import type { Bus } from './realtime/bus.js';
import type { ChannelEvents } from './realtime/channel-events.js';
import type { UserMessageLimiter } from './limits/user-message-limiter.js';
import type { SocketHub } from './realtime/socket-hub.js';
import type { SocketRegistry } from './realtime/socket-registry.js';
import type { TransmissionStore } from './transmissions/transmission-store.js';
import type { SosAlerts } from './sos/sos-alerts.js';
import type { Voice } from './voice/voice.js';

/**
 * What every feature of the server may use; built by `compose()` before any route registers,
 * frozen, and decorated on the Fastify instance as `app.ctx`. Routes read it and never replace it.
 */
export interface AppContext {
  readonly config: Config;
  readonly database: DatabaseHandle;
  /** Fan-out between instances: in-process, or Redis pub/sub with REDIS_URL. */
  readonly bus: Bus;
  /** This instance's `/ws` sockets and the bus topics they listen to. */
  readonly hub: SocketHub;
  /** This instance's JSON sockets by user and session: caps, logout and expiry reach them. */
  readonly sockets: SocketRegistry;
  /** Message budgets per user across their sockets (and instances, with Redis). */
  readonly userMessages: UserMessageLimiter;
  /** Live presence: REST reads it, `/ws` messages change it. */
  readonly presence: PresenceService;
  /** Where REST announces channel changes: to sockets on every instance, and to the audio. */
  readonly channelEvents: ChannelEvents;
  /** Walkie-talkie channels' floor: one talker at a time. */
  readonly floor: FloorService;
  /** Walkie-talkie transmissions kept for replay. */
  readonly transmissions: TransmissionStore;
  /** Web Push to users' devices, signed with the keys every instance shares. */
  readonly push: PushSender;
  /** What events call to push to the devices of people not looking at Chirp. */
  readonly notifier: PushNotifier;
  /** Family SOS alerts (decision 050). */
  readonly sos: SosAlerts;
  /** The server-owned call lifecycle. */
  readonly calls: CallService;
  /** The voice provider (told inside admin mute, removal and deletion) and the built-in SFU, if any. */
  readonly voice: Voice;
  /** Shared atomic counters (Redis or the database) for every limit that must hold across instances. */
  readonly counters: Counters;
  /** Password guesses, per account and per address, wherever a password is checked. */
  readonly signInSlowdown: SignInSlowdown;
  /** What the built-in provider's sign-up asks: a live invite, an owner. */
  readonly signupFacts: SignupFacts;
  /**
   * Plain text for whoever runs the server, outside the JSON log (standard error by default): the
   * owner setup banner. Never a secret other than that one-time code.
   */
  readonly operatorNotice: (text: string) => void;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
