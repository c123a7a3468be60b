import { useEffect, useState } from 'react';
import { WakeLockKeeper, type WakeLockApi } from './wake-lock';

const wakeLockApi = (): WakeLockApi | undefined =>
  // Absent in older browsers and insecure contexts even though the DOM types always declare it.
  (navigator as Navigator & { wakeLock?: WakeLockApi }).wakeLock;

/** Holds a screen wake lock while `wanted`, re-acquiring it when the page is visible again. */
export function useWakeLock(wanted: boolean): void {
  const [keeper] = useState(
    () => new WakeLockKeeper(wakeLockApi(), () => document.visibilityState === 'visible'),
  );

  useEffect(() => {
    keeper.setWanted(wanted);
  }, [keeper, wanted]);

  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'visible') keeper.pageShown();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      keeper.setWanted(false);
    };
  }, [keeper]);
}
