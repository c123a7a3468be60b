/**
 * Walkie-talkie channels: only the floor holder's audio is forwarded (nobody's while the floor is
 * free). Open channels have no floor: everyone not admin-muted is forwarded.
 */
export type SfuFloor = {
  walkie: boolean;
  holderId: string | null;
  /** When the holder's hold ends at the latest (epoch ms). */
  expiresAt?: number | null;
  /** The holder's is an SOS: forwarded even when admin-muted (decision 050). */
  sos?: boolean;
};

/** What a floor change did to a room's gate. */
export interface FloorChange {
  /** Whose packets count as the room's floor from now on changed (walkie rooms only have one). */
  holderChanged: boolean;
  /** The holder now (null: nobody, or an open room). */
  holderId: string | null;
  /** Users of the room who were forwarded before and are held now: they fall silent at once. */
  silenced: string[];
}

/**
 * The forwarding policy of every room, in one place: a publisher is forwarded unless it is held,
 * and it is held when an admin muted it or when its room is a walkie-talkie room whose floor it
 * does not have. Listeners' blocks are another matter (`BlockRelations`).
 */
export class ForwardingGate {
  /** By room: the admin-muted users. */
  private readonly mutedByRoom = new Map<string, Set<string>>();
  /** Walkie-talkie rooms only, by room: who holds the floor (null: nobody). */
  private readonly floorByRoom = new Map<string, { holderId: string | null; sos: boolean }>();

  isMuted(roomName: string, userId: string): boolean {
    return this.mutedByRoom.get(roomName)?.has(userId) ?? false;
  }

  /**
   * Not forwarded: admin-muted, or in a walkie-talkie room without the floor. An SOS holder is
   * forwarded even when admin-muted, for the SOS only.
   */
  isHeld(roomName: string, userId: string): boolean {
    const floor = this.floorByRoom.get(roomName);
    if (floor?.sos && floor.holderId === userId) return false;
    if (this.isMuted(roomName, userId)) return true;
    return floor !== undefined && floor.holderId !== userId;
  }

  /** The holder of a walkie-talkie room's floor; null for a free floor or an open room. */
  holderOf(roomName: string): string | null {
    return this.floorByRoom.get(roomName)?.holderId ?? null;
  }

  /** Returns whether this changed anything. */
  setMuted(roomName: string, userId: string, muted: boolean): boolean {
    if (this.isMuted(roomName, userId) === muted) return false;
    let set = this.mutedByRoom.get(roomName);
    if (muted) {
      if (!set) this.mutedByRoom.set(roomName, (set = new Set()));
      set.add(userId);
    } else {
      set?.delete(userId);
      if (set?.size === 0) this.mutedByRoom.delete(roomName);
    }
    return true;
  }

  /** `usersInRoom`: whoever publishes in the room now, to learn who falls silent. */
  setFloor(roomName: string, floor: SfuFloor, usersInRoom: Iterable<string>): FloorChange {
    const before = this.floorByRoom.get(roomName);
    const holderBefore = before?.holderId ?? null;
    const wasHeld = new Map<string, boolean>();
    for (const userId of usersInRoom) wasHeld.set(userId, this.isHeld(roomName, userId));
    if (floor.walkie)
      this.floorByRoom.set(roomName, {
        holderId: floor.holderId,
        sos: floor.holderId !== null && floor.sos === true,
      });
    else this.floorByRoom.delete(roomName);
    const holderId = floor.walkie ? floor.holderId : null;
    const silenced = [...wasHeld]
      .filter(([userId, held]) => !held && this.isHeld(roomName, userId))
      .map(([userId]) => userId);
    // A join re-announces the same floor: that is no change of holder.
    return { holderChanged: holderBefore !== holderId, holderId, silenced };
  }

  /** The room is gone: its mutes and floor with it. */
  forgetRoom(roomName: string): void {
    this.mutedByRoom.delete(roomName);
    this.floorByRoom.delete(roomName);
  }
}
