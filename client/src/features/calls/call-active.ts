import { useSyncExternalStore } from 'react';

/**
 * Whether a one-to-one call is active (placed or accepted, until it ends). The channel voice reads
 * it: its room stays disconnected while a call is active (spec §4 "Voice room connection").
 */
let active = false;
const listeners = new Set<(active: boolean) => void>();

export function isCallActiveNow(): boolean {
  return active;
}

/** Calls `listener` on every change; returns the unsubscribe function. */
export function subscribeCallActive(listener: (active: boolean) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useCallActive(): boolean {
  return useSyncExternalStore(subscribeCallActive, isCallActiveNow, isCallActiveNow);
}

/** Set by the calls controller only. */
export function setCallActive(next: boolean): void {
  if (active === next) return;
  active = next;
  for (const listener of [...listeners]) listener(next);
}

/**
 * Runs before an incoming call is accepted, e.g. to take the user offline in their channel first
 * (spec §4: "Accepting a call while in full-duplex first auto-disconnects from the channel").
 */
export type BeforeAcceptCall = () => void | Promise<void>;

let beforeAccept: BeforeAcceptCall | null = null;

/** Registers the hook (one at a time); returns a function that removes it again. */
export function setBeforeAcceptCall(hook: BeforeAcceptCall | null): () => void {
  beforeAccept = hook;
  return () => {
    if (beforeAccept === hook) beforeAccept = null;
  };
}

/** A failing hook is logged and does not stop the call from being accepted. */
export async function runBeforeAcceptCall(): Promise<void> {
  try {
    await beforeAccept?.();
  } catch (error) {
    console.error('beforeAcceptCall failed', error);
  }
}
