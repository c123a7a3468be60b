import { useEffect, useState } from 'react';
import { formatDuration } from './call-state';

/** m:ss since `startedAt`, ticking twice a second so it never skips a second. */
export function CallTimer({ startedAt, className }: { startedAt: number; className?: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, []);
  return (
    <span
      data-testid="call-timer"
      className={className}
      style={{ fontVariantNumeric: 'tabular-nums' }}
    >
      {formatDuration(now - startedAt)}
    </span>
  );
}
