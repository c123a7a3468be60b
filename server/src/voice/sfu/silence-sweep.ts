/** A room the sweep can ask to report talkers whose packets stopped. */
export interface SweptRoom {
  /** Reports silence for talkers quiet since `now - PACKET_SILENCE_MS`; true while someone still speaks. */
  sweepSilence(now: number): boolean;
}

/**
 * One timer for the whole SFU that finds talkers whose packets stopped (muted with DTX, or gone)
 * and reports them silent. Only rooms where someone is speaking are watched, and the timer runs
 * only while there are any: a room per timer cost idle servers a timer wake-up every 300 ms for
 * every room, though nobody spoke.
 */
export class SilenceSweep {
  private readonly rooms = new Set<SweptRoom>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly everyMs: number) {}

  /** How many rooms are being watched. */
  get size(): number {
    return this.rooms.size;
  }

  /** Someone in `room` started speaking: watch it until nobody there does. */
  watch(room: SweptRoom): void {
    this.rooms.add(room);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), this.everyMs);
      this.timer.unref();
    }
  }

  forget(room: SweptRoom): void {
    this.rooms.delete(room);
    if (this.rooms.size === 0) this.stop();
  }

  close(): void {
    this.rooms.clear();
    this.stop();
  }

  private sweep(): void {
    const now = Date.now();
    for (const room of this.rooms) if (!room.sweepSilence(now)) this.rooms.delete(room);
    if (this.rooms.size === 0) this.stop();
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
