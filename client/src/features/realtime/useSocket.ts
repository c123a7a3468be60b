import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import { useSocketConnection } from './RealtimeProvider';
import type { MessageHandler, SocketState } from './socket-connection';

/** The socket state for rendering ("disconnected" when signed out). */
export function useSocketState(): SocketState {
  const connection = useSocketConnection();
  const subscribe = useCallback((onChange: () => void) => connection?.onState(onChange) ?? (() => undefined), [connection]);
  return useSyncExternalStore(subscribe, () => connection?.state ?? 'disconnected');
}

/** Calls `handler` for every message of `type`; the latest handler is used without resubscribing. */
export function useSocketMessage(type: string, handler: MessageHandler): void {
  const connection = useSocketConnection();
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => connection?.on(type, (message) => latest.current(message)), [connection, type]);
}
