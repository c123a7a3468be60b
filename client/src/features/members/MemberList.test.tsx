import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ChannelMember } from '../../../../protocol/channels';
import { createQueryClient } from '../../lib/query-client';
import { MemberList } from './MemberList';

const member = (
  id: string,
  name: string,
  role: ChannelMember['role'] = 'member',
): ChannelMember => ({
  id,
  userId: id,
  name,
  role,
  isOnline: true,
  isActiveInChannel: true,
  isTalking: true,
  isMutedInChannel: false,
  email: null,
  profileImageUrl: null,
});
const MEMBERS = [member('me', 'Olivia Owner', 'admin'), member('ben', 'Ben Bartholomew')];

/** The server as the list's requests meet it: up (answering) or gone (the request fails). */
const server = { up: true };
function stubServer() {
  server.up = true;
  // The query client logs each failed request; the failures here are the point.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.stubGlobal('fetch', (input: string | URL) => {
    if (!server.up) return Promise.reject(new TypeError('Failed to fetch'));
    const url = String(input);
    const body = url.includes('/members') ? MEMBERS : { volumes: {}, rogerBeep: false };
    return Promise.resolve(new Response(JSON.stringify(body), { status: 200 }));
  });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderList() {
  stubServer();
  const client = createQueryClient();
  render(
    <QueryClientProvider client={client}>
      <MemberList channelId={7} channelName="Family" selfId="me" canManage offerTalk />
    </QueryClientProvider>,
  );
  return client;
}

describe('MemberList', () => {
  it('shows an open microphone as Online, and an actions menu on others only', async () => {
    renderList();
    expect(await screen.findByText('Ben Bartholomew')).toBeTruthy();
    expect(screen.queryByText('Speaking')).toBeNull();
    expect(screen.getAllByText('Online')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Actions for Ben Bartholomew' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Actions for Olivia Owner' })).toBeNull();
  });

  it('keeps the last-known members while the server is away, with Retry, and recovers', async () => {
    const client = renderList();
    await screen.findByText('Ben Bartholomew');
    server.up = false;
    await client.refetchQueries({ queryKey: ['/api/channels', 7, 'members'] });
    expect(await screen.findByText('Reconnecting...')).toBeTruthy();
    expect(screen.getByText('Ben Bartholomew')).toBeTruthy();
    expect(screen.queryByText('Failed to fetch members')).toBeNull();
    expect(screen.getAllByTestId('member-card').map((card) => card.dataset.stale)).toEqual([
      'true',
      'true',
    ]);
    server.up = true;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByText('Reconnecting...')).toBeNull());
    expect(screen.getByText('Ben Bartholomew')).toBeTruthy();
  });

  it('says "Failed to fetch members" with Retry when nothing was ever fetched', async () => {
    stubServer();
    server.up = false;
    render(
      <QueryClientProvider client={createQueryClient()}>
        <MemberList channelId={7} channelName="Family" selfId="me" canManage={false} />
      </QueryClientProvider>,
    );
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to fetch members');
    server.up = true;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Ben Bartholomew')).toBeTruthy();
  });
});
