import type { Counters } from '../../limits/counters.js';

/** What sign-up asks of the rest of the server: whether an invite is live, whether it has an owner. */
export interface SignupFacts {
  inviteIsLive(token: string): Promise<boolean>;
  hasOwner(): Promise<boolean>;
}

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
  facts: SignupFacts,
  counters: Counters,
  policy: 'open' | 'invite',
  request: { invite: unknown; address: string },
): Promise<SignupDecision> {
  if (policy === 'open') return 'allowed';
  const { invite, address } = request;
  if (typeof invite === 'string' && (await facts.inviteIsLive(invite))) return 'allowed';
  if (await facts.hasOwner()) return 'invite-only';
  const made = await counters
    .counter('unowned-signup', UNOWNED_SIGNUP_WINDOW_S)
    .penalty(`address:${address}`);
  return made.consumedPoints <= UNOWNED_SIGNUPS_PER_ADDRESS ? 'allowed' : 'unowned-cap';
}
