import type { SocketState } from './socket-connection';

/** What the report needs of the socket and of the page. */
export interface VisibilityReportDeps {
  send: (message: { type: 'visibility'; visible: boolean }) => boolean;
  onState: (listener: (state: SocketState) => void) => () => void;
  page: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;
}

/**
 * Tells the server whether this page is visible: on every (re)connect and on every change. Where a
 * page is visible the server sends no push notification to this device (it shows the event here).
 * Returns the function that stops it.
 */
export function reportVisibility({ send, onState, page }: VisibilityReportDeps): () => void {
  const report = () => {
    send({ type: 'visibility', visible: page.visibilityState === 'visible' });
  };
  const stopState = onState((state) => {
    if (state === 'connected') report();
  });
  page.addEventListener('visibilitychange', report);
  return () => {
    stopState();
    page.removeEventListener('visibilitychange', report);
  };
}
