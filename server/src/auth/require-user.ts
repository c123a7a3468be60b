import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../http/errors.js';
import { findSession, SESSION_COOKIE, type FoundSession, type SessionUser } from './session-store.js';

const resolved = new WeakMap<FastifyRequest, Promise<FoundSession | null>>();

/** Session tokens are 32 random bytes in base64url; anything else is no session, not a lookup. */
const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The session of this request (user, id, expiry), or null. Looked up once per request. */
export function currentSession(request: FastifyRequest): Promise<FoundSession | null> {
  let pending = resolved.get(request);
  if (!pending) {
    const token = request.cookies[SESSION_COOKIE];
    pending = token && SESSION_TOKEN.test(token) ? findSession(request.server.ctx.database.db, token) : Promise.resolve(null);
    resolved.set(request, pending);
  }
  return pending;
}

/** The signed-in user of this request, or null. */
export async function currentUser(request: FastifyRequest): Promise<SessionUser | null> {
  return (await currentSession(request))?.user ?? null;
}

/** Guard: the signed-in user, or a 401 `{message:"Unauthorized"}`. */
export async function requireUser(request: FastifyRequest): Promise<SessionUser> {
  const user = await currentUser(request);
  if (!user) throw unauthorized();
  return user;
}
