import type { FastifyRequest } from 'fastify';
import { isAdminTier } from '../../../protocol/user.js';
import type { SessionUser } from '../auth/session-store.js';
import { requireUser } from '../auth/require-user.js';
import { forbidden } from '../http/errors.js';

/** Guard: a superadmin (user management, tier changes), else 403. */
export async function requireSuperadmin(request: FastifyRequest): Promise<SessionUser> {
  const user = await requireUser(request);
  if (user.subscriptionTier !== 'superadmin') throw forbidden('Only a superadmin can do this');
  return user;
}

/** Guard: the user named in the path is the caller, or the caller is a superadmin; else 403. */
export async function requireSelfOrSuperadmin(
  request: FastifyRequest,
  userId: string,
): Promise<SessionUser> {
  const user = await requireUser(request);
  if (userId !== user.id && user.subscriptionTier !== 'superadmin') {
    throw forbidden('You can only do this for yourself');
  }
  return user;
}

/** Guard: admin or superadmin tier (creating channels, spec §6), else 403. */
export async function requireAdminTier(request: FastifyRequest): Promise<SessionUser> {
  const user = await requireUser(request);
  if (!isAdminTier(user.subscriptionTier)) throw forbidden('Only admins can create channels');
  return user;
}

/** Member tier and above see every channel and may join one themselves (DESIGN §3 "Channels"). */
export function hasAllChannelsAccess(user: Pick<SessionUser, 'subscriptionTier'>): boolean {
  return user.subscriptionTier !== 'free';
}
