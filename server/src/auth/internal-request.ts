import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** Header on the server's own calls to its built-in provider (discovery, token), over loopback. */
export const INTERNAL_HEADER = 'x-chirp-internal';

/** A key derived from the session secret: only this deployment's processes can present it. */
export function internalKey(sessionSecret: string): string {
  return createHmac('sha256', sessionSecret).update('chirp internal requests').digest('base64url');
}

/**
 * True for the server's own back-channel requests. They all come from the server's address (behind a
 * proxy, every user's sign-in would share one limit), so they are recognised by key instead.
 */
export function isInternalRequest(request: FastifyRequest, sessionSecret: string): boolean {
  const presented = request.headers[INTERNAL_HEADER];
  if (typeof presented !== 'string') return false;
  const expected = Buffer.from(internalKey(sessionSecret));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
