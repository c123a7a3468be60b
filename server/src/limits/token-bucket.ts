/**
 * A token bucket: bursts of `burst`, refilled at `perSecond`. Every socket (`/ws`, `/ws/webrtc`,
 * the SFU's `/rtc`) keeps one to tell a busy client from a flooding one; synchronous, so the check
 * costs nothing on the message path.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly limits: { perSecond: number; burst: number },
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = limits.burst;
    this.last = now();
  }

  /** Takes one token; false (and nothing taken) when the bucket is empty. */
  take(): boolean {
    const now = this.now();
    const { perSecond, burst } = this.limits;
    this.tokens = Math.min(burst, this.tokens + ((now - this.last) / 1000) * perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
