import type { Database } from '../../db/database.js';
import { findInviteChannel } from '../../invites/invite-store.js';
import type { Counters } from '../../limits/counters.js';
import { hasOwner } from '../../ownership/owner-store.js';

/**
 * Accounts one address may create on an invite-only server that has no owner yet. That window is
 * there so the owner can get in and claim the server (decision 012), not for anyone to register at
 * will: a few tries for the owner, not a stranger's batch of accounts.
 */
export const UNOWNED_SIGNUPS_PER_ADDRESS = 5;
export const UNOWNED_SIGNUP_WINDOW_S = 60 * 60;

export type SignupDecision = 'allowed' | 'invite-only' | 'unowned-cap';

/**
 * Who may create a built-in account (SIGNUP, decision 012). `open`: anyone. `invite`: a person
 * arriving with a live invite link, or — while the server has no owner — someone from an address
 * that has not already used its few owner-less sign-ups. `SUPERADMIN_EMAILS` opens nothing here:
 * this provider never verifies an address, so anyone could type a listed one and take it.
 */
export async function decideSignup(
  db: Database,
  counters: Counters,
  policy: 'open' | 'invite',
  request: { invite: unknown; address: string },
): Promise<SignupDecision> {
  if (policy === 'open') return 'allowed';
  const { invite, address } = request;
  if (typeof invite === 'string' && (await findInviteChannel(db, invite)) !== null) return 'allowed';
  if (await hasOwner(db)) return 'invite-only';
  const made = await counters.counter('unowned-signup', UNOWNED_SIGNUP_WINDOW_S).penalty(`address:${address}`);
  return made.consumedPoints <= UNOWNED_SIGNUPS_PER_ADDRESS ? 'allowed' : 'unowned-cap';
}
