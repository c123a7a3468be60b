import {
  initialPresenceState,
  reducePresence,
  type PresenceEffect,
  type PresenceEvent,
  type PresenceState,
} from './presence-state';

export type EffectRunner = (effect: PresenceEffect) => void;

/**
 * Holds the tab's one online state and performs the reducer's effects. A module-level store (like
 * the current channel) rather than a context, so the top bar badge, the big button and the voice
 * feature read the same state without a provider wrapping them all.
 */
export class PresenceStore {
  private current: PresenceState = initialPresenceState;
  private readonly listeners = new Set<() => void>();
  private runner: EffectRunner | null = null;

  get state(): PresenceState {
    return this.current;
  }

  /** The runtime connects the socket and toasts; effects with no runner attached are dropped. */
  attach(runner: EffectRunner): () => void {
    this.runner = runner;
    return () => {
      if (this.runner === runner) this.runner = null;
    };
  }

  dispatch(event: PresenceEvent): void {
    const { state, effects } = reducePresence(this.current, event);
    const changed = state !== this.current;
    this.current = state;
    // Effects run before listeners so a re-render never sees a state whose messages are unsent.
    for (const effect of effects) this.runner?.(effect);
    if (changed) for (const listener of this.listeners) listener();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The tab's presence state. */
export const presenceStore = new PresenceStore();
