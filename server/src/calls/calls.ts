import type { FastifyInstance } from 'fastify';
import { RING_TIMEOUT_MS } from '../../../protocol/calls.js';
import type { CallTimings } from './call-service.js';
import { registerCallRoutes } from './calls-routes.js';
import { registerWebrtcSocketRoute } from './webrtc-socket-route.js';

/** A user whose last socket closed keeps their call this long, so a network blip does not end it. */
export const DISCONNECT_GRACE_MS = 10_000;

export const DEFAULT_CALL_TIMINGS: CallTimings = {
  ringTimeoutMs: RING_TIMEOUT_MS,
  disconnectGraceMs: DISCONNECT_GRACE_MS,
};

/** The running server's call timings; tests shorten them (a 30 s ring makes a slow test). */
export function callTimings(app: FastifyInstance): CallTimings {
  return app.ctx.calls.timings;
}

/**
 * One-to-one calls: signalling on `/ws/webrtc` and `GET /api/calls` history. Call state travels on
 * `/ws` (see realtime/ws-route.ts); the service itself is built by compose().
 */
export function registerCalls(app: FastifyInstance): void {
  registerWebrtcSocketRoute(app);
  registerCallRoutes(app);
}
