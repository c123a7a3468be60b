/**
 * Keeps a repetitive log line (one bad frame after another) from flooding the log: the first
 * occurrence of a key logs, later ones within `intervalMs` are only counted, and the next one after
 * the interval logs again with how many were left out.
 */
export class LogThrottle {
  private readonly seen = new Map<string, { since: number; suppressed: number }>();

  constructor(
    private readonly intervalMs = 60_000,
    private readonly now: () => number = Date.now,
    /** Keys remembered at most; the oldest are forgotten first (attackers choose keys, e.g. IPs). */
    private readonly maxKeys = 10_000,
  ) {}

  /**
   * Whether this occurrence should be logged; when it should, how many occurrences since the last
   * logged one were suppressed (0 for the first).
   */
  take(key: string): { log: true; suppressed: number } | { log: false } {
    const now = this.now();
    const entry = this.seen.get(key);
    if (entry && now - entry.since < this.intervalMs) {
      entry.suppressed++;
      return { log: false };
    }
    const suppressed = entry?.suppressed ?? 0;
    this.seen.delete(key);
    this.seen.set(key, { since: now, suppressed: 0 });
    if (this.seen.size > this.maxKeys) this.seen.delete(this.seen.keys().next().value!);
    return { log: true, suppressed };
  }

  /** Occurrences counted but not logged for a key (e.g. to report when a socket closes). */
  pending(key: string): number {
    return this.seen.get(key)?.suppressed ?? 0;
  }
}
