import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { SosAlertsStore } from './sos-alerts-store';

/** The alert id in a notification tap's address (`/?sos=<id>`, `pushTapUrl.sos`), if any. */
export function readSosTap(search: string): string | null {
  return new URLSearchParams(search).get('sos') || null;
}

/**
 * A tapped SOS notification: that alert full screen in front (once the alerts are loaded it shows;
 * a resolved one simply is not there), and the parameter goes so a reload does not act again.
 */
export function useSosTap(store: SosAlertsStore): void {
  const search = useSearch();
  const [path, navigate] = useLocation();
  const alertId = readSosTap(search);
  useEffect(() => {
    if (alertId === null) return;
    store.bringToFront(alertId);
    const params = new URLSearchParams(search);
    params.delete('sos');
    const rest = params.toString();
    navigate(`${path}${rest ? `?${rest}` : ''}`, { replace: true });
    // The id is what matters; `search` and `path` change with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [alertId]);
}
