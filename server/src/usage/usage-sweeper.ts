import type { Database } from '../db/database.js';
import { closeUnseenVoiceUsage, touchVoiceUsage } from './voice-usage.js';

/** DESIGN §3: a usage record closes when the server has not seen the user for this long. */
export const UNSEEN_GRACE_MS = 2 * 60 * 1000;

/** What this instance sees right now: voice connections it holds, users whose sockets it holds. */
export interface SeenNow {
  connectionIds: string[];
  userIds: string[];
}

/**
 * Keeps usage honest without trusting the client or the server's uptime: every sweep records that
 * this instance still sees its connections (`lastSeenAt`), then closes the records nobody has seen
 * for two minutes, at the moment they were last seen — a tab that vanished, or a server that
 * crashed and stayed down, is never billed past that. Safe on several instances: every write is
 * guarded by `endedAt is null`.
 */
export class UsageSweeper {
  constructor(
    private readonly db: Database,
    private readonly seen: () => SeenNow,
    private readonly now: () => number = Date.now,
    private readonly graceMs = UNSEEN_GRACE_MS,
  ) {}

  async sweep(): Promise<number> {
    const now = this.now();
    await touchVoiceUsage(this.db, this.seen(), new Date(now));
    return closeUnseenVoiceUsage(this.db, new Date(now - this.graceMs));
  }
}
