import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { Channel, ChannelActivity } from '../../../../protocol/channels';
import type { User } from '../../../../protocol/user';
import { createQueryClient } from '../../lib/query-client';
import { ChannelsMenu } from './ChannelsMenu';
import { setCurrentChannelId } from './current-channel';

const admin: User = {
  id: 'olivia',
  email: 'owner@chirp.test',
  firstName: 'Olivia',
  lastName: 'Owner',
  profileImageUrl: null,
  subscriptionTier: 'admin',
};

const channel = (id: number, name: string, createdBy: string, memberCount: number): Channel => ({
  id,
  name,
  createdBy,
  memberCount,
  talkMode: 'walkie',
  maxTransmissionSeconds: 60,
  keepTransmissions: true,
  sos: false,
  sosSeconds: 10,
});

const family = channel(1, 'Family', 'olivia', 4);
const hiking = channel(2, 'Weekend hiking group and campfire stories', 'olivia', 1);
const work = channel(3, 'Work', 'boss', 3);
const chess = channel(4, 'Chess club', 'boss', 5);

function serve(activity: ChannelActivity[]) {
  const answers: Record<string, unknown> = {
    '/api/auth/user': admin,
    '/api/users/olivia/channels': [family, hiking, work],
    '/api/channels': [family, hiking, work, chess],
    '/api/channels/activity': activity,
  };
  vi.stubGlobal('fetch', (input: string | URL) => {
    const body = answers[new URL(input, 'http://chirp.test').pathname];
    return Promise.resolve(
      body === undefined
        ? new Response('Not found', { status: 404 })
        : new Response(JSON.stringify(body), { status: 200 }),
    );
  });
}

function renderMenu(defaultOpen: boolean) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ChannelsMenu defaultOpen={defaultOpen} />
    </QueryClientProvider>,
  );
}

beforeEach(() => setCurrentChannelId(1));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setCurrentChannelId(null);
});

// Under a busy machine the first render (Radix menu, queries) alone can take seconds.
describe('the Channels menu', { timeout: 15_000 }, () => {
  it('lists each channel once, with what is going on in each of mine', async () => {
    serve([
      { channelId: 1, missed: 0, online: 2 },
      { channelId: 2, missed: 0, online: 0 },
      { channelId: 3, missed: 2, online: 1 },
    ]);
    renderMenu(true);
    const menu = await screen.findByRole('menu', { name: 'Channels' });
    await within(menu).findByText('2 missed', undefined, { timeout: 5000 });
    for (const name of ['Family', hiking.name, 'Work', 'Chess club'])
      expect(within(menu).getAllByText(name)).toHaveLength(1);

    const group = (label: string) => within(menu).getByRole('group', { name: label });
    expect(within(group('Created by You')).getAllByRole('menuitem')).toHaveLength(2);
    expect(within(group('Member Of')).getAllByRole('menuitem')).toHaveLength(1);
    expect(within(group('All Channels')).getAllByRole('menuitem')).toHaveLength(1);

    const item = (name: string) =>
      within(menu)
        .getAllByRole('menuitem')
        .find((element) => within(element).queryByText(name) !== null)!;
    expect(item('Work').textContent).toContain('3 members');
    expect(item('Work').textContent).toContain('1 online');
    expect(item('Work').textContent).toContain('2 missed');
    expect(item('Family').textContent).toContain('2 online');
    expect(item('Family').textContent).not.toContain('missed');
    expect(within(item('Family')).getByLabelText('Current channel')).toBeTruthy();
    // Nobody there, nothing missed: only the member count.
    expect(item(hiking.name).textContent).toBe(`${hiking.name}1 member`);
    // Not mine: no activity is known or shown.
    expect(item('Chess club').textContent).toBe('Chess club5 members');
  });

  it('counts on its button what I missed in channels other than the one on screen', async () => {
    serve([
      { channelId: 1, missed: 4, online: 0 },
      { channelId: 3, missed: 2, online: 1 },
    ]);
    renderMenu(false);
    const button = await screen.findByRole(
      'button',
      { name: 'Channels, 2 missed in other channels' },
      { timeout: 5000 },
    );
    expect(within(button).getByText('2')).toBeTruthy();
  });
});
