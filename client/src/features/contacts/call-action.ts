import type { User } from '../../../../protocol/user';

export type CallHandler = (user: User) => void;

/**
 * The Contacts list's call buttons go through here, so the calls feature (built later) plugs in with
 * `setCallHandler` without the list knowing about it. Until then a call does nothing but log.
 */
let handler: CallHandler | null = null;

/** Installs the calls feature's handler; returns a function that removes it again. */
export function setCallHandler(next: CallHandler | null): () => void {
  handler = next;
  return () => {
    if (handler === next) handler = null;
  };
}

export function startCall(user: User): void {
  if (handler) handler(user);
  else console.info('Calls are not available yet', user.id);
}
