/** One end heard: a sign-in session, or every session of a user but `except`. */
export type HeardEnd = { sessionId: string } | { userId: string; except?: string };

/** How many ends are remembered: far more than can be heard while one check awaits the database. */
const REMEMBERED = 1000;

/**
 * Ends of sign-in sessions heard lately, numbered. Whoever admits a connection after reading the
 * database (a socket upgrade, a voice join) takes a `mark()` first and asks `endedSince(mark)`
 * before admitting: an end committed after the read, and heard before the connection was added,
 * is not missed.
 */
export class RecentSessionEnds {
  private readonly ends: (HeardEnd & { seq: number })[] = [];
  private seq = 0;

  mark(): number {
    return this.seq;
  }

  remember(end: HeardEnd): void {
    this.ends.push({ ...end, seq: ++this.seq });
    if (this.ends.length > REMEMBERED) this.ends.splice(0, this.ends.length - REMEMBERED);
  }

  /** Whether an end heard after `mark` covers this connection's sign-in session. */
  endedSince(mark: number, who: { userId: string; sessionId: string | undefined }): boolean {
    return this.ends.some(
      (end) =>
        end.seq > mark &&
        ('sessionId' in end
          ? end.sessionId === who.sessionId
          : end.userId === who.userId && (end.except === undefined || who.sessionId !== end.except)),
    );
  }
}
