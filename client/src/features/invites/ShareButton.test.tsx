import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { User } from '../../../../protocol/user';
import { Providers } from '../../app/Providers';
import { createQueryClient } from '../../lib/query-client';
import { clearToasts } from '../../ui/toast-store';
import { setCurrentChannelId } from '../channels/current-channel';
import { ShareButton } from './ShareButton';

const ADA: User = {
  id: 'u1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  profileImageUrl: null,
  subscriptionTier: 'free',
};

/** The server at the network edge: Ada signed in, no conversations, an invite link for channel 3. */
function serverAnswers(): void {
  vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
    const url = input instanceof Request ? input.url : input.toString();
    if (url === '/api/auth/user') return Promise.resolve(Response.json(ADA));
    if (url === '/api/conversations') return Promise.resolve(Response.json([]));
    if (url === '/api/invite/generate')
      return Promise.resolve(
        Response.json({ inviteUrl: 'http://localhost/?channel=3&invite=abc' }),
      );
    return Promise.resolve(new Response('Not Found', { status: 404 }));
  });
}

function renderShare() {
  return render(
    <Providers queryClient={createQueryClient()}>
      <ShareButton />
    </Providers>,
  );
}

/** The Share button once its tooltip's code has loaded (it renders afresh inside the trigger). */
async function shareButton(): Promise<HTMLElement> {
  return waitFor(() => {
    const button = screen.getByRole('button', { name: 'Share' });
    expect(button.getAttribute('data-state')).not.toBeNull();
    return button;
  });
}

beforeAll(() => import('../../ui/Tooltip'), 30_000);
beforeEach(() => {
  serverAnswers();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  act(() => {
    setCurrentChannelId(null);
    clearToasts();
  });
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Share', () => {
  it('is disabled without a channel and says why, instead of toasting an error', async () => {
    renderShare();
    const share = await shareButton();
    expect(share.getAttribute('aria-disabled')).toBe('true');
    const reason = document.getElementById(share.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toBe('Select a channel to share its invite link');

    fireEvent.click(share);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByText('No channel selected')).toBeNull();
  });

  it('shows the reason in a tooltip on keyboard focus', async () => {
    renderShare();
    const share = await shareButton();
    fireEvent.keyDown(document.body, { key: 'Tab' });
    act(() => share.focus());
    expect((await screen.findByRole('tooltip')).textContent).toBe(
      'Select a channel to share its invite link',
    );
  });

  it('opens the invite-link dialog once there is a channel', async () => {
    act(() => setCurrentChannelId(3));
    renderShare();
    const share = await shareButton();
    expect(share.getAttribute('aria-disabled')).toBeNull();
    expect(share.getAttribute('aria-describedby')).toBeNull();
    fireEvent.click(share);
    expect(await screen.findByRole('dialog', {}, { timeout: 5000 })).toBeTruthy();
  });
});
