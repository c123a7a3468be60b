import { isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { API_PATHS } from '../../../protocol/api-paths.js';
import { usageSessions } from '../db/schema.js';
import { metricsAccess } from './metrics-access.js';

export const METRICS_PATH = '/metrics';

/** A scrape never waits on a sick database for longer than this; the figure is left out instead. */
const QUERY_TIMEOUT_MS = 1000;

const withTimeout = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms).unref())]);

/** Sign-in steps whose failures are counted, by route pattern: what the browser posted or came back to. */
const SIGN_IN_STEPS: Record<string, string> = {
  'POST /oidc/interaction/:uid': 'password',
  [`GET ${API_PATHS.callback}`]: 'callback',
};

/**
 * `GET /metrics` in Prometheus' text format, from this instance: sockets, online users, the built-in
 * SFU (rooms, participants, packets received, lost and forwarded, by fast or slow path), open usage records, HTTP latency
 * by route pattern, sign-in failures, and Node's own figures (event-loop lag, CPU, memory, GC, file
 * descriptors). Each app has its own registry, so several servers in one process (tests) stay apart.
 */
export function registerMetrics(app: FastifyInstance): void {
  const { config, hub, voice, database } = app.ctx;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });

  const openSockets = new Map<string, number>();
  app.websocketServer.on('connection', (ws: { once(event: 'close', listener: () => void): void }, request: { url?: string }) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    openSockets.set(path, (openSockets.get(path) ?? 0) + 1);
    ws.once('close', () => openSockets.set(path, (openSockets.get(path) ?? 1) - 1));
  });
  new Gauge({
    name: 'chirp_open_sockets',
    help: 'Open WebSocket connections on this instance, by path (/ws presence and calls, /ws/webrtc call signalling, /rtc built-in SFU)',
    labelNames: ['path'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [path, count] of openSockets) this.set({ path }, count);
    },
  });
  new Gauge({
    name: 'chirp_online_users',
    help: 'Users with at least one /ws socket on this instance (members online)',
    registers: [registry],
    collect() {
      this.set(hub.userCount);
    },
  });

  const sfu = voice.sfu;
  if (sfu) {
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({ name, help, registers: [registry], collect() { this.set(read()); } });
    gauge('chirp_sfu_rooms', 'Voice rooms open in the built-in SFU', () => sfu.stats().rooms);
    gauge('chirp_sfu_peers', 'Participants connected to the built-in SFU', () => sfu.stats().participants);
    const total = (name: string, help: string, read: () => number) => {
      let reported = 0;
      new Counter({
        name,
        help,
        registers: [registry],
        collect() {
          const now = read();
          this.inc(Math.max(0, now - reported));
          reported = now;
        },
      });
    };
    total('chirp_sfu_packets_received_total', 'RTP packets the built-in SFU received from publishers', () => sfu.stats().packetsReceived);
    total('chirp_sfu_packets_lost_total', 'Publisher RTP packets that never reached the built-in SFU (sequence gaps)', () => sfu.stats().packetsLost);
    total('chirp_sfu_packets_forwarded_total', 'RTP packets the built-in SFU sent on to listeners', () => sfu.stats().packetsForwarded);
    total('chirp_sfu_fast_path_packets_total', 'Forwarded packets the built-in SFU encrypted and sent on UDP itself (its fast path)', () => sfu.stats().fastPathPackets);
    total('chirp_sfu_slow_path_packets_total', 'Forwarded packets the built-in SFU handed to werift instead (AES-GCM, TCP or TURN pairs, or werift internals not found)', () => sfu.stats().slowPathPackets);
    total('chirp_sfu_consent_answers_off_loop_total', 'ICE consent checks the built-in SFU answered on its receive thread, without waking the event loop', () => sfu.stats().consentAnswersOffLoop);
  }

  new Gauge({
    name: 'chirp_usage_sessions_open',
    help: 'Usage records (metered voice connections) not yet closed, in the whole database',
    registers: [registry],
    async collect() {
      try {
        const [row] = await withTimeout(
          database.db.select({ open: sql<number>`count(*)::int` }).from(usageSessions).where(isNull(usageSessions.endedAt)),
          QUERY_TIMEOUT_MS,
        );
        this.set(row?.open ?? 0);
      } catch {
        this.reset(); // no figure rather than a stale one while the database is unreachable
      }
    },
  });

  const duration = new Histogram({
    name: 'chirp_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const signInFailures = new Counter({
    name: 'chirp_sign_in_failures_total',
    help: 'Refused sign-in attempts: wrong password or invalid form at the built-in provider, failed callbacks',
    labelNames: ['step'],
    registers: [registry],
  });
  for (const step of new Set(Object.values(SIGN_IN_STEPS))) signInFailures.inc({ step }, 0);

  app.addHook('onResponse', async (request, reply) => {
    // The pattern (/api/channels/:id), never the raw URL: one series per route, whatever the ids.
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === METRICS_PATH) return;
    const status = reply.statusCode;
    duration.observe({ method: request.method, route, status_code: String(status) }, reply.elapsedTime / 1000);
    const step = SIGN_IN_STEPS[`${request.method} ${route}`];
    if (step && status >= 400) signInFailures.inc({ step });
  });

  app.get(METRICS_PATH, { logLevel: 'warn' }, async (request, reply) => {
    const access = metricsAccess(request, config.metricsToken);
    if (access === 'needs-token') {
      return reply.status(401).header('www-authenticate', 'Bearer realm="metrics"').send({ message: 'Unauthorized' });
    }
    if (access === 'forbidden') {
      return reply.status(403).send({ message: 'Metrics are served to this machine only (or set METRICS_TOKEN)' });
    }
    return reply.type(registry.contentType).header('cache-control', 'no-store').send(await registry.metrics());
  });
}
