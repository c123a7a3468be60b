import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ChannelMember } from '../../../../protocol/channels';
import type { User } from '../../../../protocol/user';
import { Providers } from '../../app/Providers';
import { createQueryClient } from '../../lib/query-client';
import { clearToasts } from '../../ui/toast-store';
import { getCurrentChannelId, setCurrentChannelId, useCurrentChannel } from '../channels/current-channel';
import { useChannelMembers } from '../channels/useChannelMembers';
import { OnlineButton } from './OnlineButton';
import { PresenceRuntime } from './PresenceRuntime';
import { SocketStatusNote } from './SocketStatusNote';
import { usePresence } from './usePresence';
import { RealtimeProvider } from '../realtime/RealtimeProvider';

const ADA: User = {
  id: 'u1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  profileImageUrl: null,
  subscriptionTier: 'free',
};

const member = (id: string, patch: Partial<ChannelMember> = {}): ChannelMember => ({
  id,
  userId: id,
  name: `User ${id}`,
  role: 'member',
  isOnline: true,
  isActiveInChannel: true,
  isTalking: false,
  isMutedInChannel: false,
  email: null,
  profileImageUrl: null,
  ...patch,
});

/** The browser WebSocket at the network edge; everything above it is the real app code. */
class FakeSocket {
  static readonly OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  constructor() {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  serverOpens() {
    this.readyState = 1;
    this.onopen?.();
  }
  serverSends(message: object) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

const socket = () => FakeSocket.all.at(-1)!;
const sentTypes = () => socket().sent.map((m) => `${String(m.type)}:${String(m.channelId)}`);

function Members() {
  const members = useChannelMembers(7);
  return <p>members: {members.data?.map((m) => `${m.id}${m.isTalking ? '*' : ''}`).join(',')}</p>;
}

/** What the main screen mounts for presence: the runtime (once) and the big button. */
function PresenceHarness() {
  const { channelId } = useCurrentChannel();
  const { online, socketOpen } = usePresence();
  return (
    <>
      <PresenceRuntime channelId={channelId} />
      <OnlineButton disabled={channelId === null || (!online && !socketOpen)} />
      <SocketStatusNote id="note" />
    </>
  );
}

async function renderConnected() {
  render(
    <Providers queryClient={createQueryClient()}>
      <RealtimeProvider>
        <PresenceHarness />
        <Members />
      </RealtimeProvider>
    </Providers>,
  );
  await screen.findByText('members: u1,u2');
  act(() => socket().serverOpens());
}

beforeEach(() => {
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
    const url = input instanceof Request ? input.url : input.toString();
    if (url === '/api/auth/user') return Promise.resolve(Response.json(ADA));
    if (url === '/api/channels/7/members')
      return Promise.resolve(Response.json([member('u1'), member('u2')]));
    return Promise.resolve(Response.json([]));
  });
  setCurrentChannelId(7);
});

afterEach(() => {
  cleanup();
  setCurrentChannelId(null);
  clearToasts();
  vi.unstubAllGlobals();
});

describe('the presence runtime in the main screen', () => {
  it('joins the channel with the user id once the socket opens, and goes online on the button', async () => {
    await renderConnected();
    expect(socket().sent).toEqual([{ type: 'join_channel', channelId: 7, userId: 'u1' }]);
    fireEvent.click(screen.getByRole('button', { name: /Tap to connect/ }));
    expect(sentTypes()).toEqual(['join_channel:7', 'start_talking:7']);
    expect(
      screen.getByRole('button', { name: /Tap to disconnect/ }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(screen.getAllByText('Connecting to voice...').length).toBeGreaterThan(0);
  });

  it('patches the cached member list from member_update', async () => {
    await renderConnected();
    act(() =>
      socket().serverSends({
        type: 'member_update',
        channelId: 7,
        member: member('u2', { isTalking: true }),
      }),
    );
    expect(await screen.findByText('members: u1,u2*')).toBeTruthy();
    act(() => socket().serverSends({ type: 'member_update', channelId: 7, member: member('u3') }));
    expect(await screen.findByText('members: u1,u2*,u3')).toBeTruthy();
  });

  it('shows a poke with the poker’s name', async () => {
    await renderConnected();
    act(() =>
      socket().serverSends({
        type: 'poke',
        channelId: 7,
        from: { id: 'u2', name: 'Grace Hopper' },
      }),
    );
    expect(screen.getAllByText('Grace Hopper poked you').length).toBeGreaterThan(0);
  });

  it('is forced offline with Connection Lost when the socket drops, and rejoins after', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await renderConnected();
    fireEvent.click(screen.getByRole('button', { name: /Tap to connect/ }));
    const first = socket();
    act(() => first.close());
    expect(screen.getAllByText('Voice disconnected due to connection loss').length).toBeGreaterThan(
      0,
    );
    expect(screen.getByRole('button', { name: /Tap to connect/ })).toHaveProperty('disabled', true);
    expect(screen.getByText('Reconnecting…')).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, 2000)));
    expect(socket()).not.toBe(first);
    act(() => socket().serverOpens());
    expect(socket().sent).toEqual([{ type: 'join_channel', channelId: 7, userId: 'u1' }]);
  });

  it('goes offline and clears the selection when removed from the current channel', async () => {
    await renderConnected();
    fireEvent.click(screen.getByRole('button', { name: /Tap to connect/ }));
    act(() =>
      socket().serverSends({
        type: 'channel_changed',
        channelId: 9,
        change: 'member_removed',
        userId: 'u1',
      }),
    );
    expect(getCurrentChannelId()).toBe(7);
    act(() =>
      socket().serverSends({
        type: 'channel_changed',
        channelId: 7,
        change: 'member_removed',
        userId: 'u2',
      }),
    );
    expect(getCurrentChannelId()).toBe(7);
    act(() =>
      socket().serverSends({
        type: 'channel_changed',
        channelId: 7,
        change: 'member_removed',
        userId: 'u1',
      }),
    );
    expect(getCurrentChannelId()).toBeNull();
    expect(
      screen.getAllByText('You are no longer a member of this channel').length,
    ).toBeGreaterThan(0);
    expect(sentTypes()).toEqual(['join_channel:7', 'start_talking:7']);
  });
});
