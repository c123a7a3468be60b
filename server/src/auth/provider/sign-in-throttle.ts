/**
 * Slows down password guessing: after a few failures for the same account or the same address,
 * each further attempt waits longer (up to 30 s), and the counters forget after 15 minutes.
 */
export class SignInThrottle {
  private readonly failures = new Map<string, { count: number; firstAt: number }>();

  constructor(
    private readonly freeAttempts = 5,
    private readonly windowMs = 15 * 60 * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds this attempt must wait before it is checked. */
  delayFor(keys: string[]): number {
    const worst = Math.max(0, ...keys.map((key) => this.count(key)));
    const excess = worst - this.freeAttempts;
    return excess < 0 ? 0 : Math.min(30_000, 1000 * 2 ** Math.min(excess, 5));
  }

  recordFailure(keys: string[]): void {
    for (const key of keys) {
      const entry = this.failures.get(key);
      const fresh = !entry || this.now() - entry.firstAt > this.windowMs;
      this.failures.set(key, fresh ? { count: 1, firstAt: this.now() } : { ...entry, count: entry.count + 1 });
    }
    if (this.failures.size > 50_000) this.failures.clear();
  }

  recordSuccess(keys: string[]): void {
    for (const key of keys) this.failures.delete(key);
  }

  private count(key: string): number {
    const entry = this.failures.get(key);
    if (!entry || this.now() - entry.firstAt > this.windowMs) return 0;
    return entry.count;
  }
}
