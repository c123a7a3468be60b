import { SOS_ARM_MS } from '../../../protocol/sos.js';
import type { Counters } from '../limits/counters.js';

const ARM_SECONDS = Math.ceil(SOS_ARM_MS / 1000);
const keyOf = (channelId: number, userId: string) => `${channelId}:${userId}`;

/**
 * Who is armed for an SOS countdown now (decision 054), for every instance: a mark in the shared
 * counters (Redis, or the database) that lapses by itself after `SOS_ARM_MS`. The voice door reads
 * it, so a LiveKit join webhook that lands after the arm does not take the arm back.
 */
export class SosArms {
  constructor(private readonly counters: Counters) {}

  private get marks() {
    return this.counters.counter('sos-armed', ARM_SECONDS);
  }

  async mark(channelId: number, userId: string): Promise<void> {
    await this.marks.set(keyOf(channelId, userId), 1, ARM_SECONDS);
  }

  async unmark(channelId: number, userId: string): Promise<void> {
    await this.marks.delete(keyOf(channelId, userId));
  }

  async isArmed(channelId: number, userId: string): Promise<boolean> {
    const mark = await this.marks.get(keyOf(channelId, userId));
    return mark !== null && mark.consumedPoints > 0 && mark.msBeforeNext > 0;
  }
}
