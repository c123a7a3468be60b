import { useSyncExternalStore } from 'react';
import type { FloorHolder } from '../../../../protocol/floor';

/** What the screen shows of a walkie-talkie channel's floor. */
export type FloorView = {
  channelId: number | null;
  /** Who is talking now (null: nobody), as the server last said. */
  holder: FloorHolder | null;
  /** Epoch milliseconds: the hold ends by then at the latest. */
  expiresAt: number | null;
  /**
   * This tab's last press was refused (someone was talking, too soon after the last hold, ...) or
   * its floor was taken by an admin cutting in: when, so the talk button shakes once for it.
   */
  deniedAt: number | null;
  /**
   * This tab holds the floor: when its transmission is taken back at the latest (this tab's clock,
   * counted from the grant) and the channel's maximum transmission length, for the countdown ring.
   */
  live: { until: number; seconds: number } | null;
};

const EMPTY: FloorView = {
  channelId: null,
  holder: null,
  expiresAt: null,
  deniedAt: null,
  live: null,
};

/** The tab's one floor view; the floor runtime writes it, the main screen reads it. */
export class FloorViewStore {
  private current: FloorView = EMPTY;
  private readonly listeners = new Set<() => void>();

  get state(): FloorView {
    return this.current;
  }

  set(next: Partial<FloorView>): void {
    this.current = { ...this.current, ...next };
    for (const listener of this.listeners) listener();
  }

  reset(channelId: number | null): void {
    this.current = { ...EMPTY, channelId };
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

export const floorView = new FloorViewStore();

export function useFloorView(store: FloorViewStore = floorView): FloorView {
  return useSyncExternalStore(store.subscribe, () => store.state);
}
