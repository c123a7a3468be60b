import { usePresenceRuntime, type PresenceRuntimeOptions } from './usePresenceRuntime';

/** `usePresenceRuntime` as an element, for screens that mount it next to other content. */
export function PresenceRuntime(options: PresenceRuntimeOptions) {
  usePresenceRuntime(options);
  return null;
}
