// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../lib/query-client';
import { fakeChannelSocket } from '../../testing/fake-websocket';
import { channelMembersKey } from '../channels/channel-queries';
import { transmissionsKey } from './transmission-keys';
import { refreshTransmissionsOnPush } from './transmission-refresh';

afterEach(() => vi.unstubAllGlobals());

function setup() {
  const { socket, last } = fakeChannelSocket();
  const queryClient = createQueryClient();
  const cached = { transmissions: [], missed: 2 };
  queryClient.setQueryData(transmissionsKey(7), cached);
  queryClient.setQueryData(transmissionsKey(8), cached);
  queryClient.setQueryData(channelMembersKey(7), []);
  socket.open();
  last().serverOpens();
  const stop = refreshTransmissionsOnPush(socket, queryClient);
  const stale = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated;
  return { queryClient, last, stop, stale };
}

describe('transmissions refresh on a push', () => {
  it("marks that channel's kept transmissions stale when the server says they changed", () => {
    const t = setup();
    t.last().serverSends({
      type: 'channel_changed',
      channelId: 7,
      change: 'transmissions_changed',
    });
    expect(t.stale(transmissionsKey(7))).toBe(true);
    expect(t.stale(transmissionsKey(8))).toBe(false);
    expect(t.stale(channelMembersKey(7))).toBe(false);
    t.stop();
  });

  it('leaves them alone on other channel changes, and after stop', () => {
    const t = setup();
    t.last().serverSends({ type: 'channel_changed', channelId: 7, change: 'member_added' });
    expect(t.stale(transmissionsKey(7))).toBe(false);
    t.stop();
    t.last().serverSends({
      type: 'channel_changed',
      channelId: 7,
      change: 'transmissions_changed',
    });
    expect(t.stale(transmissionsKey(7))).toBe(false);
  });
});
