import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { useAuth } from '../auth/useAuth';
import { SocketConnection, socketUrl } from './socket-connection';

const RealtimeContext = createContext<SocketConnection | null>(null);

/**
 * Opens the tab's `/ws` connection while someone is signed in (guests get none, spec §1) and closes
 * it on sign-out or unmount.
 */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const userId = user?.id ?? null;
  const connection = useMemo(() => (userId ? new SocketConnection(socketUrl(window.location)) : null), [userId]);

  useEffect(() => {
    if (!connection) return;
    connection.open();
    return () => connection.close();
  }, [connection]);

  return <RealtimeContext.Provider value={connection}>{children}</RealtimeContext.Provider>;
}

/** The tab's socket connection, or null when signed out. */
export function useSocketConnection(): SocketConnection | null {
  return useContext(RealtimeContext);
}
