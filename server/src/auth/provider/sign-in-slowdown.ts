import type { Counters } from '../../limits/counters.js';

/** Failures a key may have in the window before its attempts are slowed. */
export const FREE_ACCOUNT_FAILURES = 5;
/** An address is shared by a household or an office: it gets more. */
export const FREE_ADDRESS_FAILURES = 20;
export const SLOWDOWN_WINDOW_S = 15 * 60;
export const MAX_DELAY_MS = 30_000;

/** 0 up to the free failures, then 1 s, 2 s, 4 s, ... up to 30 s. */
export function delayFor(ordinal: number, free: number): number {
  const excess = ordinal - free;
  return excess <= 0 ? 0 : Math.min(MAX_DELAY_MS, 1000 * 2 ** Math.min(excess - 1, 16));
}

export interface SignInAttempt {
  /** The password was right: the attempt is not counted; slowed only if the account is under attack. */
  succeeded(): Promise<void>;
  /** The password was wrong: the attempt stays counted and is answered after its delay. */
  failed(): Promise<void>;
  /** Not a password guess (a sign-up refused, a form error): not counted, not slowed. */
  uncounted(): Promise<void>;
}

/**
 * Slows password guessing per account and per address, in shared counters (Redis or the database).
 * Every attempt is counted atomically *before* the password is checked, so parallel guesses each
 * get their own place in the count and their own delay; a correct password gives its point back.
 * The delay is applied after the check and before answering, to failures — and to successes only on
 * an account under attack, so a success cannot be told apart by its speed there. A correct password
 * on an account under no attack is never slowed, whatever its address has seen.
 */
export class SignInSlowdown {
  constructor(
    private readonly counters: Counters,
    private readonly sleep: (ms: number) => Promise<void> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  async begin(email: string, address: string): Promise<SignInAttempt> {
    const counter = this.counters.counter('sign-in', SLOWDOWN_WINDOW_S);
    const accountKey = `account:${email.trim().toLowerCase()}`;
    const addressKey = `address:${address}`;
    const [account, byAddress] = await Promise.all([counter.penalty(accountKey), counter.penalty(addressKey)]);
    const accountDelay = delayFor(account.consumedPoints, FREE_ACCOUNT_FAILURES);
    const addressDelay = delayFor(byAddress.consumedPoints, FREE_ADDRESS_FAILURES);
    const giveBack = async () => {
      await Promise.all([counter.reward(accountKey), counter.reward(addressKey)]);
    };
    const wait = (ms: number) => (ms > 0 ? this.sleep(ms) : Promise.resolve());
    return {
      succeeded: async () => {
        await giveBack();
        await wait(accountDelay);
      },
      failed: () => wait(Math.max(accountDelay, addressDelay)),
      uncounted: giveBack,
    };
  }
}
