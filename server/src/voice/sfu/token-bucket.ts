/**
 * A token bucket: `rate` tokens a second, at most `burst` saved up. Synchronous and allocation-free,
 * for checks that run on every datagram. Times are epoch or monotonic ms, one kind per bucket.
 */
export class TokenBucket {
  private tokens: number;
  private last: number | undefined;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  /** Adds what accrued since the last call; call before `has` and `take`. */
  refill(now: number): void {
    const elapsed = this.last === undefined ? 0 : Math.max(0, now - this.last) / 1000;
    this.last = now;
    this.tokens = Math.min(this.burst, this.tokens + elapsed * this.rate);
  }

  has(amount: number): boolean {
    return this.tokens >= amount;
  }

  take(amount: number): void {
    this.tokens -= amount;
  }

  /** `refill`, then takes `amount` if there is that much: whether it did. */
  admit(amount: number, now: number): boolean {
    this.refill(now);
    if (this.tokens < amount) return false;
    this.tokens -= amount;
    return true;
  }
}
