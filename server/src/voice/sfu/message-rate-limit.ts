/**
 * Token bucket for one signalling socket. Real clients send a handful of messages per negotiation
 * (an answer and their ICE candidates); a socket far beyond that is broken or hostile.
 */
export class MessageRateLimit {
  private tokens: number;
  private last = Date.now();

  constructor(
    private readonly burst = 200,
    private readonly perSecond = 50,
  ) {
    this.tokens = burst;
  }

  allow(now = Date.now()): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
