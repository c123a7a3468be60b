/**
 * Opens the microphone whatever Mute Self and the talk button say, while an SOS is on the air
 * (decision 050: the server gives the sender the floor for the channel's SOS seconds). The SOS
 * feature turns it on and off; the voice runtime follows it while the room is connected.
 */
let open = false;
const listeners = new Set<() => void>();

export const microphoneOverride = {
  isOpen: (): boolean => open,
  set(next: boolean): void {
    if (next === open) return;
    open = next;
    for (const listener of [...listeners]) listener();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
