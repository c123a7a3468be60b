/** A walkie-talkie floor change as the voice server is told it. */
export interface VoiceFloor {
  walkie: boolean;
  holderId: string | null;
  /** Who held it before this change, if anyone. */
  previousHolderId: string | null;
  /** When the holder's hold ends at the latest (epoch ms): what is recorded of it stops there. */
  expiresAt?: number | null;
  /**
   * The holder's is an SOS (decision 050): heard even when admin-muted, and in an open channel the
   * provider carries only them until the SOS ends (a `modeChanged` to open brings everyone back).
   */
  sos?: boolean;
  /** The talk mode changed: the admin-muted members, who stay silent in an open channel. */
  modeChanged?: { mutedUserIds: readonly string[] };
}

/**
 * Whatever carries the channel's audio, as the floor sees it (the voice provider): told of every
 * floor change before anyone hears of it, so the media path never lags the floor.
 */
export interface FloorFollower {
  setFloor(channelId: number, floor: VoiceFloor): Promise<void>;
  /**
   * Whether the voice server has a connection of the user in the channel's room now, by its own
   * list. Asked only when no usage row says so yet: LiveKit reports a join by a webhook, which can
   * come a second or more after the browser shows "Voice Ready" (and its first press).
   */
  hasConnection?(channelId: number, userId: string): Promise<boolean>;
}
