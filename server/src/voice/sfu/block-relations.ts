/**
 * Who must not hear whom, both ways (a block either way): for each user with a session here, the
 * users whose audio they neither receive nor send. Learnt at each join from the admission and kept
 * current by `changed`; forgotten with a user's last session.
 */
export class BlockRelations {
  private readonly relations = new Map<string, Set<string>>();

  /** The users with a block between them and this one (either way). */
  of(userId: string): ReadonlySet<string> | undefined {
    return this.relations.get(userId);
  }

  /** The admission's list is the database's truth of the moment for this user. */
  set(userId: string, others: readonly string[]): void {
    for (const other of [...(this.relations.get(userId) ?? [])])
      if (!others.includes(other)) this.unrelate(userId, other);
    for (const other of others) if (other !== userId) this.relate(userId, other);
  }

  /**
   * A block was made or removed. `connected` says whether a user has a session here: only they
   * need it now; the others learn it at their join.
   */
  changed(
    blockerId: string,
    blockedId: string,
    blocked: boolean,
    connected: (userId: string) => boolean,
  ): void {
    if (!blocked) this.unrelate(blockerId, blockedId);
    else if (connected(blockerId) || connected(blockedId)) this.relate(blockerId, blockedId);
  }

  /** The user's last session here ended: their relations are learnt again at their next join. */
  forget(userId: string): void {
    for (const other of [...(this.relations.get(userId) ?? [])]) this.unrelate(userId, other);
  }

  private relate(a: string, b: string): void {
    for (const [one, other] of [
      [a, b],
      [b, a],
    ] as const) {
      let set = this.relations.get(one);
      if (!set) this.relations.set(one, (set = new Set()));
      set.add(other);
    }
  }

  private unrelate(a: string, b: string): void {
    for (const [one, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const set = this.relations.get(one);
      set?.delete(other);
      if (set?.size === 0) this.relations.delete(one);
    }
  }
}
