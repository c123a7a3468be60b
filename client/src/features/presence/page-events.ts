/**
 * The few browser objects the presence runtime listens to, narrowed so unit tests can hand it
 * plain `EventTarget`s instead of a DOM.
 */
export type Listenable = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;

export interface PageEvents {
  window: Listenable;
  document: Listenable & { readonly visibilityState: DocumentVisibilityState };
}

/** Adds a listener and returns the function that removes it again. */
export function listen(
  target: Listenable,
  type: string,
  listener: (event: Event) => void,
  options?: AddEventListenerOptions,
): () => void {
  target.addEventListener(type, listener, options);
  return () => target.removeEventListener(type, listener, options);
}
