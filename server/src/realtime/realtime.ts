import type { FastifyInstance } from 'fastify';
import { channelChangedSchema, channelClientMessageSchema } from '../../../protocol/sockets.js';
import { PresenceService } from '../presence/presence-service.js';
import { MemoryPresenceStore, type PresenceStore } from '../presence/presence-store.js';
import { RedisPresenceStore } from '../presence/redis-presence-store.js';
import { InProcessBus, type Bus } from './bus.js';
import { busChannelEvents } from './channel-event-publisher.js';
import { registerChannelSocketRoute } from './channel-socket-route.js';
import { RedisBus } from './redis-bus.js';
import { SocketHub, type ClientSocket } from './socket-hub.js';
import { SocketRouter } from './socket-router.js';

export interface Realtime {
  bus: Bus;
  hub: SocketHub;
  router: SocketRouter;
  presence: PresenceService;
  /** Called after a `/ws` socket of this instance closed and presence was updated (e.g. calls end). */
  onSocketClosed(listener: (socket: ClientSocket) => Promise<void>): void;
}

/** How often crashed instances are looked for: their users show offline about this soon after. */
const REAP_INTERVAL_MS = 1_000;

/**
 * The live layer: `/ws` sockets, presence and pushes, fanned out in-process or — with REDIS_URL —
 * through Redis so several instances behave as one. Replaces the REST defaults on `app.ctx`.
 */
export function registerRealtime(app: FastifyInstance): Realtime {
  const { config, database } = app.ctx;
  const onRedisError = (error: unknown) => app.log.error({ err: error }, 'redis error');
  const bus: Bus = config.redisUrl ? new RedisBus(config.redisUrl, config.redisPrefix, onRedisError) : new InProcessBus();
  const store: PresenceStore = config.redisUrl
    ? new RedisPresenceStore(config.redisUrl, config.redisPrefix, onRedisError)
    : new MemoryPresenceStore();
  const hub = new SocketHub(bus);
  const presence = new PresenceService({ db: database.db, store, bus, hub, log: app.log });
  const router = new SocketRouter();

  app.ctx.presence = presence;
  app.ctx.channelEvents = busChannelEvents(bus, database.db, app.log);

  router.on(['join_channel', 'leave_channel', 'start_talking', 'stop_talking'], channelClientMessageSchema, (socket, message) =>
    presence.handle(socket, message),
  );
  // A socket that may no longer see a channel stops being present in it, on whichever instance it is.
  hub.onDeliver((socket, message) => {
    const changed = channelChangedSchema.safeParse(message);
    if (!changed.success) return;
    const { change, channelId, userId } = changed.data;
    if (change === 'channel_deleted' || (change === 'member_removed' && userId === socket.userId)) {
      presence.evict(socket, channelId).catch((error: unknown) => app.log.error({ err: error }, 'evict failed'));
    }
  });
  const closedListeners: ((socket: ClientSocket) => Promise<void>)[] = [];
  registerChannelSocketRoute(app, router, {
    opened: (socket) => presence.socketOpened(socket),
    closed: async (socket) => {
      await presence.socketClosed(socket);
      for (const listener of closedListeners) await listener(socket);
    },
  });

  const reaper = setInterval(() => {
    presence.reap().catch((error: unknown) => app.log.error({ err: error }, 'presence reap failed'));
  }, REAP_INTERVAL_MS);
  reaper.unref();
  app.addHook('onClose', async () => {
    clearInterval(reaper);
    await store.close();
    await bus.close();
  });
  const realtime: Realtime = {
    bus,
    hub,
    router,
    presence,
    onSocketClosed: (listener) => void closedListeners.push(listener),
  };
  app.ctx.realtime = realtime;
  return realtime;
}
