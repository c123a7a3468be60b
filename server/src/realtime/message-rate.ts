/**
 * A token bucket per socket: bursts of `burst` messages, `perSecond` sustained. A socket that keeps
 * sending past it is flooding and gets closed.
 */
export class MessageRate {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond = 20,
    private readonly burst = 40,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** Takes one token; false when the bucket is empty. */
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
