/**
 * The browser's word that its network changed: `online` after `offline`, or the Network
 * Information API's `change` with a new connection type (Wi-Fi → cellular, where the browser
 * tells; Android Chrome does, desktop Chrome has no `type`). A phone that hops networks keeps its
 * peer connections, but their ICE pairs run over the old network's addresses and die with it: the
 * voice code restarts ICE at once instead of waiting seconds for ICE itself to notice.
 *
 * Changes of the estimated speed alone (`effectiveType`, `rtt`, `downlink`) fire the same `change`
 * event and are not network changes: they are ignored.
 */
export type NetworkChange = 'online' | 'offline' | 'changed';

/** The parts of `navigator.connection` read here (absent in Firefox and Safari). */
interface ConnectionLike extends EventTarget {
  readonly type?: string;
}

export interface NetworkChangeSource {
  window: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  connection?: ConnectionLike | undefined;
}

function browserSource(): NetworkChangeSource | undefined {
  if (typeof window === 'undefined') return undefined;
  const connection = (navigator as Navigator & { connection?: ConnectionLike }).connection;
  return { window, connection };
}

/** Calls `listener` on each network change until the returned function is called. */
export function watchNetworkChanges(
  listener: (change: NetworkChange) => void,
  source: NetworkChangeSource | undefined = browserSource(),
): () => void {
  if (!source) return () => undefined;
  const online = () => listener('online');
  const offline = () => listener('offline');
  const connection = source.connection;
  let type = connection?.type;
  const changed = () => {
    const now = connection?.type;
    if (now === undefined || now === type) return;
    type = now;
    // 'none' is the cellular radio going away with nothing else up: the offline event says that.
    if (now !== 'none') listener('changed');
  };
  source.window.addEventListener('online', online);
  source.window.addEventListener('offline', offline);
  connection?.addEventListener('change', changed);
  return () => {
    source.window.removeEventListener('online', online);
    source.window.removeEventListener('offline', offline);
    connection?.removeEventListener('change', changed);
  };
}
