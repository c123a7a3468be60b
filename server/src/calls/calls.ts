import type { FastifyInstance } from 'fastify';
import {
  acceptCallSchema,
  declineCallSchema,
  endCallSchema,
  initiateCallSchema,
  RING_TIMEOUT_MS,
} from '../../../protocol/calls.js';
import { CallService, type CallTimings } from './call-service.js';
import { registerCallRoutes } from './calls-routes.js';
import { registerWebrtcSocketRoute } from './webrtc-socket-route.js';

/** A user whose last socket closed keeps their call this long, so a network blip does not end it. */
export const DISCONNECT_GRACE_MS = 10_000;

const timingsOf = new WeakMap<FastifyInstance, CallTimings>();

/** The running server's call timings; tests shorten them (a 30 s ring makes a slow test). */
export function callTimings(app: FastifyInstance): CallTimings {
  const timings = timingsOf.get(app);
  if (!timings) throw new Error('registerCalls has not run on this app');
  return timings;
}

/**
 * One-to-one calls: call state on `/ws` (initiate, accept, decline, end, miss, disconnect),
 * signalling on `/ws/webrtc`, and `GET /api/calls` history. Needs the realtime layer registered first.
 */
export function registerCalls(app: FastifyInstance, timings: Partial<CallTimings> = {}): void {
  const realtime = app.ctx.realtime;
  if (!realtime) throw new Error('registerCalls needs registerRealtime first');
  const resolved: CallTimings = {
    ringTimeoutMs: RING_TIMEOUT_MS,
    disconnectGraceMs: DISCONNECT_GRACE_MS,
    ...timings,
  };
  timingsOf.set(app, resolved);
  const service = new CallService({
    db: app.ctx.database.db,
    bus: realtime.bus,
    presence: realtime.presence,
    log: app.log.child({ feature: 'calls' }),
    timings: resolved,
  });
  const { router } = realtime;
  router.on(['initiate_call'], initiateCallSchema, (socket, message) =>
    service.initiate(socket, message),
  );
  router.on(['call_accepted'], acceptCallSchema, (socket, message) =>
    service.accept(socket, message),
  );
  router.on(['call_declined'], declineCallSchema, (socket, message) =>
    service.decline(socket, message),
  );
  router.on(['call_ended'], endCallSchema, (socket, message) => service.end(socket, message));
  realtime.onSocketClosed((socket) => service.socketClosed(socket));
  app.addHook('onClose', async () => service.close());

  registerWebrtcSocketRoute(app, realtime.bus);
  registerCallRoutes(app);
}
