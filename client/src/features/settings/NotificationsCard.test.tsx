import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../lib/query-client';
import { NOTIFICATION_TEXTS, NotificationsCard } from './NotificationsCard';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const PREFERENCES = { calls: true, pokes: true, transmissions: true, channelAdds: true };

function renderCard() {
  vi.stubGlobal('fetch', () => Promise.resolve(new Response(JSON.stringify(PREFERENCES), { status: 200 })));
  render(
    <QueryClientProvider client={createQueryClient()}>
      <NotificationsCard />
    </QueryClientProvider>,
  );
}

/** A browser with Web Push: a service worker without a subscription yet, and the permission state given. */
function pushCapableBrowser(permission: NotificationPermission) {
  const requestPermission = vi.fn(() => Promise.resolve<NotificationPermission>('denied'));
  vi.stubGlobal('PushManager', class {});
  vi.stubGlobal('Notification', { permission, requestPermission });
  const registration = { pushManager: { getSubscription: () => Promise.resolve(null) } };
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { ready: Promise.resolve(registration) } });
  return { requestPermission };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
  vi.restoreAllMocks();
});

describe('Settings → Notifications', () => {
  it('says so where the browser cannot, with no button that would fail', () => {
    renderCard();
    expect(screen.getByText(NOTIFICATION_TEXTS.unsupported)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Turn on notifications on this device' })).toBeNull();
  });

  it('tells an iPhone Safari tab to add Chirp to the Home Screen first', () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(IPHONE);
    renderCard();
    expect(screen.getByText(NOTIFICATION_TEXTS.needsHomeScreen)).toBeTruthy();
  });

  it('asks for the permission only after the click, and explains how to allow again when refused', async () => {
    const { requestPermission } = pushCapableBrowser('default');
    renderCard();
    const turnOn = await screen.findByRole('button', { name: 'Turn on notifications on this device' });
    await waitFor(() => expect((turnOn as HTMLButtonElement).disabled).toBe(false));
    expect(requestPermission).not.toHaveBeenCalled();
    // The person says no in the prompt: the browser now blocks Chirp.
    requestPermission.mockImplementation(() => {
      vi.stubGlobal('Notification', { permission: 'denied', requestPermission });
      return Promise.resolve('denied');
    });
    fireEvent.click(turnOn);
    await waitFor(() => expect(requestPermission).toHaveBeenCalledTimes(1));
    expect(await screen.findByText(NOTIFICATION_TEXTS.denied)).toBeTruthy();
  });

  it('shows the per-kind switches as the server keeps them', async () => {
    renderCard();
    const calls = await screen.findByRole('switch', { name: /Calls/ });
    await waitFor(() => expect((calls as HTMLInputElement).checked).toBe(true));
  });
});
