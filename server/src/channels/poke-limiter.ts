import { POKE_INTERVAL_MS } from '../../../protocol/channels.js';

/**
 * At most one poke per (from, to) pair per interval (DESIGN §3 "Poke"). In memory, so per server
 * instance: a user balanced across instances could poke once per instance — acceptable for a nudge.
 */
export class PokeLimiter {
  private readonly lastPoke = new Map<string, number>();

  constructor(
    private readonly intervalMs = POKE_INTERVAL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records the poke and returns true, or returns false when the pair poked too recently. */
  tryPoke(from: string, to: string): boolean {
    const time = this.now();
    const key = `${from}\n${to}`;
    const last = this.lastPoke.get(key);
    if (last !== undefined && time - last < this.intervalMs) return false;
    this.forgetExpired(time);
    this.lastPoke.set(key, time);
    return true;
  }

  get size(): number {
    return this.lastPoke.size;
  }

  // Entries are inserted in time order, so expired ones sit at the front of the map.
  private forgetExpired(time: number): void {
    for (const [key, last] of this.lastPoke) {
      if (time - last < this.intervalMs) break;
      this.lastPoke.delete(key);
    }
  }
}
