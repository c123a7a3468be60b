import type { VoiceTransportEvents } from './voice-transport';

type AnyListener = (event: VoiceTransportEvents[keyof VoiceTransportEvents]) => void;

/** Synchronous typed emitter; one throwing listener is logged and does not starve the others. */
export class TransportEvents {
  private readonly listeners = new Map<keyof VoiceTransportEvents, Set<AnyListener>>();

  on<K extends keyof VoiceTransportEvents>(
    name: K,
    listener: (event: VoiceTransportEvents[K]) => void,
  ): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    // Stored untyped; `emit` only ever calls it with this event name's payload.
    const stored = listener as AnyListener;
    set.add(stored);
    return () => {
      set.delete(stored);
    };
  }

  emit<K extends keyof VoiceTransportEvents>(name: K, event: VoiceTransportEvents[K]): void {
    for (const listener of this.listeners.get(name) ?? []) {
      try {
        listener(event);
      } catch (error) {
        console.error('voice transport listener failed', error);
      }
    }
  }
}
