import { WifiOff } from 'lucide-react';
import { useEffect } from 'react';
import { Button } from '../../ui/Button';

/** Shown instead of a browser error when the app opens without reaching its server. */
export function OfflineScreen({ onRetry }: { onRetry: () => void }) {
  // Try again by itself: when the network returns, and every few seconds while the server is down.
  useEffect(() => {
    const timer = setInterval(onRetry, 5000);
    window.addEventListener('online', onRetry);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', onRetry);
    };
  }, [onRetry]);
  return (
    <main className="grid min-h-dvh place-items-center p-6">
      <div className="max-w-sm text-center">
        <WifiOff aria-hidden className="mx-auto mb-4 size-10 text-muted-foreground" />
        <h1 className="text-2xl font-bold">You are offline</h1>
        <p className="mt-2 text-muted-foreground">
          Chirp can’t reach its server right now. Check your connection; we’ll reconnect as soon as it’s back.
        </p>
        <Button className="mt-6" onClick={onRetry}>
          Try again
        </Button>
      </div>
    </main>
  );
}
