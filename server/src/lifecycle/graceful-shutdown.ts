import type { FastifyInstance } from 'fastify';
import { WS_CLOSE_CODES } from '../../../protocol/sockets.js';
import type { DatabaseHandle } from '../db/database.js';

/** Orchestrators wait 10 s (Kubernetes' default grace is 30, systemd's unit here 15): stay well inside. */
export const SHUTDOWN_DEADLINE_MS = 8000;

/**
 * Stops the server for a SIGTERM or SIGINT: voice sessions end with "rejoin" (4008), every socket
 * closes with "reconnect" (1012) so clients move to another instance at once, the listener stops
 * (new requests and probes get 503 while in-flight ones finish), background work and connections
 * close, and the process exits. A dependency that does not answer (Redis or the database down)
 * cannot hold it: past the deadline the process exits anyway.
 */
export async function gracefulShutdown(
  app: FastifyInstance,
  database: DatabaseHandle,
  signal: string,
  exit: (code: number) => never = (code) => process.exit(code),
  deadlineMs = SHUTDOWN_DEADLINE_MS,
): Promise<never> {
  const started = Date.now();
  app.log.info({ signal }, 'shutting down');
  const deadline = setTimeout(() => {
    app.log.warn({ waitedMs: Date.now() - started }, 'shutdown deadline reached: exiting without waiting further');
    exit(0);
  }, deadlineMs);
  deadline.unref();

  app.ctx.voice.sfu?.close();
  for (const client of app.websocketServer.clients) client.close(WS_CLOSE_CODES.serverRestart, 'Server restarting');
  try {
    await app.close();
    await database.close();
  } catch (error) {
    app.log.error({ err: error }, 'shutdown step failed');
  }
  clearTimeout(deadline);
  app.log.info({ tookMs: Date.now() - started }, 'stopped');
  return exit(0);
}
