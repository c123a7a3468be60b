/**
 * Runs renegotiations of one peer strictly one after another. Requests made while one is running
 * collapse into a single follow-up run, because each offer describes the whole current state.
 */
export class NegotiationQueue {
  private running = false;
  private pending = false;
  private closed = false;

  constructor(
    private readonly negotiate: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  request(): void {
    if (this.closed) return;
    this.pending = true;
    if (!this.running) void this.drain();
  }

  close(): void {
    this.closed = true;
    this.pending = false;
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.pending && !this.closed) {
        this.pending = false;
        try {
          await this.negotiate();
        } catch (error) {
          if (!this.closed) this.onError(error);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
