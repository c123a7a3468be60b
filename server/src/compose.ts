import type { FastifyBaseLogger } from 'fastify';
import { channelChangedSchema } from '../../protocol/sockets.js';
import type { AppContext } from './app-context.js';
import { CallService, type CallTimings } from './calls/call-service.js';
import { DEFAULT_CALL_TIMINGS } from './calls/calls.js';
import { allLiveCalls } from './calls/call-store.js';
import { MemoryLiveCallMarks, RedisLiveCallMarks, type LiveCallMarks } from './calls/live-call-marks.js';
import type { Config } from './config/config.js';
import type { DatabaseHandle } from './db/database.js';
import {
  MemoryChannelListVersions,
  RedisChannelListVersions,
  type ChannelListVersions,
} from './memberships/channel-list-versions.js';
import { PresenceService } from './presence/presence-service.js';
import { MemoryPresenceStore, type PresenceStore } from './presence/presence-store.js';
import { RedisPresenceStore } from './presence/redis-presence-store.js';
import { createCounters } from './limits/counters.js';
import { findInviteChannel } from './invites/invite-store.js';
import { hasOwner } from './ownership/owner-store.js';
import { SignInSlowdown } from './auth/provider/sign-in-slowdown.js';
import { InProcessBus, type Bus } from './realtime/bus.js';
import { busChannelEvents } from './realtime/channel-event-publisher.js';
import { UserMessageLimiter } from './limits/user-message-limiter.js';
import { throttledRedisErrors } from './realtime/close-redis.js';
import { RedisBus } from './realtime/redis-bus.js';
import { SocketHub } from './realtime/socket-hub.js';
import { SocketRegistry } from './realtime/socket-registry.js';
import { UsageSweeper } from './usage/usage-sweeper.js';
import { meterEmbeddedVoice } from './voice/voice-metering.js';
import { createVoice } from './voice/voice.js';
import { livekitUserRemoval } from './voice/livekit/livekit-user-removal.js';
import { endVoiceOfSession } from './voice/session-voice.js';
import { callPushes } from './push/call-pushes.js';
import { PushNotifier } from './push/push-notifier.js';
import { PushSender } from './push/push-sender.js';
import { transmissionPushes } from './push/transmission-pushes.js';
import { sosPushes } from './push/sos-pushes.js';
import { SosAlerts } from './sos/sos-alerts.js';
import { SosArms } from './sos/sos-arms.js';
import { loadVapidKeys } from './push/vapid-keys.js';
import type { Agent as HttpsAgent } from 'node:https';
import { FloorService } from './floor/floor-service.js';
import { recordEmbeddedTransmissions } from './transmissions/embedded-transmissions.js';
import { LiveKitTransmissions } from './transmissions/livekit-transmissions.js';
import { TransmissionStore } from './transmissions/transmission-store.js';
import { createAudioStore } from './transmissions/audio-store/create-audio-store.js';
import { migrateTransmissionFiles } from './transmissions/audio-store/migrate-transmission-files.js';
import { MemoryFloorStore, RedisFloorStore, type FloorStore } from './floor/floor-store.js';

/**
 * Crashed instances are looked for this often (Redis presence): their users show offline about
 * this soon after the lifeline closes (decision 018).
 */
const PRESENCE_REAP_INTERVAL_MS = 1_000;
/** Usage sessions of users gone for two minutes are closed this often. */
const USAGE_SWEEP_INTERVAL_MS = 30_000;
/** LiveKit: blocked people's subscriptions to each other are withdrawn again this often. */
const BLOCKS_REAPPLY_INTERVAL_MS = 10_000;

export interface ComposeOptions {
  config: Config;
  database: DatabaseHandle;
  log: FastifyBaseLogger;
  callTimings?: Partial<CallTimings>;
  signInSleep?: ((ms: number) => Promise<void>) | undefined;
  /** The HTTPS agent for push services (tests trust their local push service with it). */
  pushAgent?: HttpsAgent | undefined;
  /** Where operator notices go (AppContext.operatorNotice); standard error unless a test reads them. */
  operatorNotice?: ((text: string) => void) | undefined;
}

const toStandardError = (text: string) => void process.stderr.write(text);

export interface Composition {
  /** Frozen: routes read it, nothing replaces a member of it. */
  ctx: AppContext;
  /** Stops the background work and closes the connections compose() opened, in reverse order. */
  close(): Promise<void>;
}

/**
 * The server's composition root. Everything the routes share is built here, once, before any
 * route registers: the bus (in-process or Redis), presence, the channel events REST publishes, the
 * call service, voice (with pinned effects over the bus when VOICE_PINNED), and the background timers.
 */
export async function compose({
  config,
  database,
  log,
  callTimings,
  signInSleep,
  pushAgent,
  operatorNotice = toStandardError,
}: ComposeOptions): Promise<Composition> {
  const { db } = database;
  // Kept voice lives where every instance reads it (checked before anything else opens); files of
  // earlier versions move in first.
  const transmissionsLog = log.child({ feature: 'transmissions' });
  const audio = await createAudioStore(db, config.transmissions.store, transmissionsLog);
  await migrateTransmissionFiles(config.transmissions.legacyDir, audio.store, transmissionsLog).catch(
    (error: unknown) => {
      audio.close();
      throw error;
    },
  );
  const onRedisError = throttledRedisErrors((error, repeats) =>
    log.error({ err: error, repeats }, 'redis error'),
  );
  const bus: Bus = config.redisUrl
    ? new RedisBus(config.redisUrl, config.redisPrefix, onRedisError)
    : new InProcessBus();
  const presenceStore: PresenceStore = config.redisUrl
    ? new RedisPresenceStore(config.redisUrl, config.redisPrefix, onRedisError)
    : new MemoryPresenceStore();
  const counters = createCounters({
    db,
    redisUrl: config.redisUrl,
    redisPrefix: config.redisPrefix,
    onError: onRedisError,
  });
  const signInSlowdown = new SignInSlowdown(counters, signInSleep);
  const hub = new SocketHub(bus);
  const sockets = new SocketRegistry(bus, log);
  await sockets.start();
  const userMessages = new UserMessageLimiter(
    config.redisUrl
      ? { url: config.redisUrl, prefix: config.redisPrefix, onError: onRedisError }
      : undefined,
  );
  const channelListVersions: ChannelListVersions = config.redisUrl
    ? new RedisChannelListVersions(config.redisUrl, config.redisPrefix, onRedisError)
    : new MemoryChannelListVersions();
  const presence = new PresenceService({
    db,
    store: presenceStore,
    versions: channelListVersions,
    bus,
    hub,
    log,
  });
  const push = new PushSender({
    db,
    keys: await loadVapidKeys(db, config.push),
    subject: config.push.subject,
    log: log.child({ feature: 'push' }),
    agent: pushAgent,
  });
  // Events push to the devices of people who are not looking at Chirp (no visible page there).
  const notifier = new PushNotifier({ db, sender: push, presence, log: log.child({ feature: 'push' }) });
  const floorStore: FloorStore = config.redisUrl
    ? new RedisFloorStore(config.redisUrl, config.redisPrefix, onRedisError)
    : new MemoryFloorStore();
  const sosArms = new SosArms(counters);
  const voice = await createVoice(config, db, bus, log, floorStore, (channelId, userId) =>
    sosArms.isArmed(channelId, userId),
  );
  // REST changes reach the sockets through the bus; the audio was told inside their transaction
  // (admin mute, removal, deletion call `voice.provider`), so a voice server that fails refuses them.
  const channelEvents = busChannelEvents(bus, db, log);
  const transmissions = new TransmissionStore({
    db,
    audio: audio.store,
    retentionHours: config.transmissions.retentionHours,
    maxBytesPerChannel: config.transmissions.maxBytesPerChannel,
    log: transmissionsLog,
  });
  // Walkie-talkie recording, one recorder for both providers: fed by the built-in SFU's tap of
  // what it forwards, or with LiveKit by a hidden listen-only participant of the granting instance.
  // Kept SOS audio sends its alert again; the alerts need the floor, made below.
  const late: { sos?: SosAlerts } = {};
  const sosKept = (alertId: string) => late.sos?.audioKept(alertId);
  const { livekit } = voice;
  const livekitTransmissions = livekit?.configured
    ? new LiveKitTransmissions({
        config,
        bus,
        store: transmissions,
        channelEvents,
        log: log.child({ feature: 'transmissions' }),
        kept: transmissionPushes(notifier, db),
        sosKept,
        unmuted: (channelId, userId) => late.sos?.unmuted(channelId, userId),
        ensureRoom: (channelId) => livekit.ensureRoom(channelId),
      })
    : undefined;
  if (livekitTransmissions)
    livekit?.onWalkieRoomEntering((channelId) => livekitTransmissions.entering(channelId));
  const floor = new FloorService({
    db,
    store: floorStore,
    bus,
    provider: () => voice.provider,
    log: log.child({ feature: 'floor' }),
    onGranted: livekitTransmissions
      ? (channelId, grant) => livekitTransmissions.granted(channelId, grant)
      : undefined,
  });
  const sos = new SosAlerts({
    db,
    bus,
    floor,
    counters,
    voice: () => voice.provider,
    arms: sosArms,
    armed: livekitTransmissions
      ? (channelId) => livekitTransmissions.entering(channelId)
      : undefined,
    pushes: sosPushes(notifier),
    log: log.child({ feature: 'sos' }),
  });
  late.sos = sos;
  const callMarks: LiveCallMarks = config.redisUrl
    ? new RedisLiveCallMarks(config.redisUrl, config.redisPrefix, onRedisError)
    : new MemoryLiveCallMarks();
  await callMarks.seed(() => allLiveCalls(db));
  const calls = new CallService({
    db,
    bus,
    presence,
    marks: callMarks,
    log: log.child({ feature: 'calls' }),
    timings: { ...DEFAULT_CALL_TIMINGS, ...callTimings },
    pushes: callPushes(notifier, db),
  });

  // A socket that may no longer see a channel stops being present in it, on whichever instance.
  hub.onDeliver((message, sockets) => {
    const changed = channelChangedSchema.safeParse(message);
    if (!changed.success) return;
    const { change, channelId, userId } = changed.data;
    for (const socket of sockets) {
      if (change === 'channel_deleted' || (change === 'member_removed' && userId === socket.userId)) {
        presence
          .evict(socket, channelId)
          .catch((error: unknown) => log.error({ err: error }, 'evict failed'));
      }
    }
  });
  // A holder whose last voice connection in the channel ended gives the floor back at once.
  const stopMetering = voice.sfu
    ? meterEmbeddedVoice(voice.sfu, db, log, (channelId, userId) =>
        floor.voiceLeft(channelId, userId),
      )
    : () => undefined;
  const stopRecording = voice.sfu
    ? recordEmbeddedTransmissions(voice.sfu, {
        store: transmissions,
        channelEvents,
        log,
        kept: transmissionPushes(notifier, db),
        sosKept,
      })
    : () => undefined;
  // However a sign-in session or an account ends, its voice ends with its sockets, on every instance.
  sockets.onSessionEnded(
    endVoiceOfSession({
      db,
      voice,
      floor,
      livekit: livekitUserRemoval(config),
      log: log.child({ feature: 'session-end' }),
    }),
  );

  // Built-in SFU: the connections it holds are seen; LiveKit: the participants LiveKit lists,
  // whether or not their user has a socket here (a connection it carries is billed until it left).
  const sweeper = new UsageSweeper(db, async () => ({
    connectionIds: voice.livekit
      ? await voice.livekit.connectionIds()
      : (voice.sfu?.connectionIds() ?? []),
  }));
  const timers = [
    setInterval(() => {
      presence.reap().catch((error: unknown) => log.error({ err: error }, 'presence reap failed'));
    }, PRESENCE_REAP_INTERVAL_MS),
    setInterval(() => {
      sweeper.sweep().catch((error: unknown) => log.error({ err: error }, 'usage sweep failed'));
    }, USAGE_SWEEP_INTERVAL_MS),
    // LiveKit: a client that subscribed again to someone in a block relation is cut off again.
    ...(livekit?.configured
      ? [
          setInterval(() => {
            livekit
              .keepBlocksApart()
              .catch((error: unknown) => log.error({ err: error }, 'keeping blocks apart failed'));
          }, BLOCKS_REAPPLY_INTERVAL_MS),
        ]
      : []),
  ];
  for (const timer of timers) timer.unref();

  const ctx: AppContext = Object.freeze({
    config,
    database,
    counters,
    signInSlowdown,
    signupFacts: {
      inviteIsLive: async (token: string) => (await findInviteChannel(database.db, token)) !== null,
      hasOwner: () => hasOwner(database.db),
    },
    bus,
    hub,
    sockets,
    userMessages,
    presence,
    channelEvents,
    calls,
    sos,
    push,
    notifier,
    voice,
    floor,
    transmissions,
    operatorNotice,
  });
  return {
    ctx,
    async close() {
      for (const timer of timers) clearInterval(timer);
      stopMetering();
      stopRecording();
      calls.close();
      await notifier.idle();
      floor.close();
      await livekitTransmissions?.close();
      presence.close();
      await sockets.close();
      await userMessages.close();
      await presenceStore.close();
      await channelListVersions.close();
      await floorStore.close();
      await callMarks.close();
      await counters.close();
      await bus.close();
      audio.close();
    },
  };
}
