import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../lib/query-client';
import { NoChannelPrompt } from './NoChannelPrompt';

const user = (tier: string) => ({
  id: 'u1',
  email: 'olga@example.com',
  firstName: 'Olga',
  lastName: 'Owner',
  subscriptionTier: tier,
  profileImageUrl: null,
});

/** The server as the browser sees it: who is signed in, and whether anyone owns the server yet. */
function serverWith(tier: string, ownerClaimed: boolean) {
  const asked: string[] = [];
  vi.stubGlobal('fetch', (input: string | URL) => {
    const path = new URL(input, 'http://localhost').pathname;
    asked.push(path);
    const answer = path === '/api/auth/user' ? user(tier) : path === '/api/setup' ? { ownerClaimed } : null;
    return Promise.resolve(new Response(JSON.stringify(answer), { status: answer ? 200 : 404 }));
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <NoChannelPrompt isAdmin={false} />
    </QueryClientProvider>,
  );
  return asked;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('a signed-in person with no channel', () => {
  it('on a server nobody owns yet, is pointed to Settings → Claim this server', async () => {
    serverWith('free', false);
    // The pointer's code loads on demand: allow a loaded machine its time.
    const link = await screen.findByRole('link', { name: 'Claim this server' }, { timeout: 5000 });
    expect(link.getAttribute('href')).toBe('/settings?section=server');
    expect(screen.getByRole('heading', { name: 'This server has no owner yet' })).toBeTruthy();
    expect(screen.getByText(/Open Settings → Claim this server/)).toBeTruthy();
  });

  it('once the server has an owner, sees no claim pointer', async () => {
    const asked = serverWith('free', true);
    await waitFor(() => expect(asked).toContain('/api/setup'));
    // Let the answer render before looking for what must not be there.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('link', { name: 'Claim this server' })).toBeNull();
  });

  it('as the owner, is never asked to claim it', async () => {
    const asked = serverWith('superadmin', false);
    await waitFor(() => expect(asked).toContain('/api/auth/user'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).not.toContain('/api/setup');
    expect(screen.queryByRole('link', { name: 'Claim this server' })).toBeNull();
  });
});
