import { useRegisterSW } from 'virtual:pwa-register/react';
import { Button } from '../../ui/Button';

/**
 * Registers the service worker (app shell cached for offline starts) and, when a new deploy is
 * waiting, offers to reload into it. The user chooses when, so a call is never cut by an update.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisterError: (error: unknown) => console.error('Service worker registration failed', error),
  });
  if (!needRefresh) return null;
  return (
    <div
      role="status"
      className="fixed inset-x-3 bottom-3 z-50 mx-auto flex max-w-md items-center gap-3 rounded-xl border border-border bg-card p-3 shadow-lg sm:inset-x-auto sm:right-4"
    >
      <p className="flex-1 text-sm font-medium">New version available</p>
      <Button size="sm" onClick={() => void updateServiceWorker(true)}>
        Reload
      </Button>
      <Button size="sm" variant="ghost" onClick={() => setNeedRefresh(false)}>
        Later
      </Button>
    </div>
  );
}
