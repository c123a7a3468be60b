import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Headers a reverse proxy adds: a request that carries one came from elsewhere, whatever its socket. */
const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

export type MetricsAccess = 'allowed' | 'needs-token' | 'forbidden';

/**
 * Who may read `/metrics`: with METRICS_TOKEN, exactly `Authorization: Bearer <token>`; without it,
 * only this machine — a loopback connection that no proxy relayed (the socket's own address, not
 * the TRUST_PROXY-derived one, and no forwarding headers, since a proxy on this machine also
 * connects from loopback).
 */
export function metricsAccess(request: FastifyRequest, token: string | undefined): MetricsAccess {
  if (token) {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer (.+)$/.exec(header);
    return match && sameSecret(match[1]!, token) ? 'allowed' : 'needs-token';
  }
  const direct = LOOPBACK.has(request.socket.remoteAddress ?? '') && PROXY_HEADERS.every((h) => request.headers[h] === undefined);
  return direct ? 'allowed' : 'forbidden';
}
