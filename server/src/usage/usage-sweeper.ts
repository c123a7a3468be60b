import type { Database } from '../db/database.js';
import { closeUnseenVoiceUsage, touchVoiceUsage } from './voice-usage.js';

/** DESIGN §3: a usage record closes when the server has not seen the user for this long. */
export const UNSEEN_GRACE_MS = 2 * 60 * 1000;

/**
 * What the voice server carries right now: the built-in SFU's connections on this instance, or
 * every participant in the deployment's LiveKit rooms (LiveKit's own list, asked over RoomService).
 */
export interface SeenNow {
  connectionIds: string[];
}

/**
 * Keeps usage honest without trusting the client or the server's uptime: every sweep records that
 * the voice server still carries its connections (`lastSeenAt`), then closes the records nobody has seen
 * for two minutes, at the moment they were last seen — a tab that vanished, or a server that
 * crashed and stayed down, is never billed past that. Safe on several instances: every write is
 * guarded by `endedAt is null`.
 */
export class UsageSweeper {
  constructor(
    private readonly db: Database,
    /** Rejects when the voice server cannot say (LiveKit unreachable): then nothing is closed. */
    private readonly seen: () => SeenNow | Promise<SeenNow>,
    private readonly now: () => number = Date.now,
    private readonly graceMs = UNSEEN_GRACE_MS,
  ) {}

  async sweep(): Promise<number> {
    const seen = await this.seen();
    const now = this.now();
    await touchVoiceUsage(this.db, seen, new Date(now));
    return closeUnseenVoiceUsage(this.db, new Date(now - this.graceMs));
  }
}
