import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { Channel } from '../../../../protocol/channels';
import type { TransmissionsResponse } from '../../../../protocol/transmissions';
import { createQueryClient } from '../../lib/query-client';
import { TransmissionsDialog } from './TransmissionsDialog';

const family: Channel = {
  id: 7,
  name: 'Family',
  createdBy: 'olivia',
  memberCount: 4,
  talkMode: 'walkie',
  maxTransmissionSeconds: 60,
  keepTransmissions: true,
  sos: false,
  sosSeconds: 10,
};

const BEN = { id: 'ben', name: 'Ben Bartholomew-Fitzgerald' };
const today = new Date();
today.setHours(8, 5, 3, 0);
const yesterday = new Date(today.getTime() - 86_400_000);

const LIST: TransmissionsResponse = {
  transmissions: [
    {
      id: '0b7d3c7e-0000-4000-8000-000000000001',
      speaker: BEN,
      startedAt: yesterday.toISOString(),
      durationMs: 10_000,
      missed: true,
    },
    {
      id: '0b7d3c7e-0000-4000-8000-000000000002',
      speaker: BEN,
      startedAt: today.toISOString(),
      durationMs: 2_000,
      missed: false,
    },
  ],
  missed: 1,
  retentionHours: 24,
};

function renderDialog() {
  vi.stubGlobal('fetch', (input: string | URL) => {
    const path = new URL(input, 'http://chirp.test').pathname;
    const body = path === '/api/channels/7/transmissions' ? LIST : { message: 'Marked as seen' };
    return Promise.resolve(new Response(JSON.stringify(body), { status: 200 }));
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <TransmissionsDialog channel={family} open onOpenChange={() => undefined} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// Under a busy machine the first render (Radix dialog, queries) alone can take seconds.
describe('the Transmissions dialog', { timeout: 15_000 }, () => {
  it('gives each transmission its whole speaker name and its day with the time', async () => {
    renderDialog();
    const list = await screen.findByRole('list', { name: 'Kept transmissions' });
    const [first, second] = within(list).getAllByRole('listitem');
    const time = today.toLocaleTimeString(undefined, {
      hour: 'numeric',
      minute: '2-digit',
      second: '2-digit',
    });
    expect(within(first!).getByText(BEN.name)).toBeTruthy();
    expect(first!.textContent).toContain(`Yesterday, ${time} · 0:10`);
    expect(first!.textContent).toContain('Missed');
    expect(second!.textContent).toContain(`Today, ${time} · 0:02`);
    expect(
      within(second!).getByRole('button', { name: `Play ${BEN.name} at Today, ${time}` }),
    ).toBeTruthy();
  });

  it('offers one set of controls: its own buttons, and no browser player beside them', async () => {
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Transmissions' });
    await within(dialog).findByRole('list', { name: 'Kept transmissions' });
    expect(within(dialog).getByRole('button', { name: 'Play all' })).toBeTruthy();
    expect(within(dialog).getByRole('group', { name: 'Playback speed' })).toBeTruthy();
    const audio = dialog.querySelector('audio');
    expect(audio?.controls).toBe(false);
    expect(audio?.className).toContain('hidden');
    // Nothing plays yet: no Pause, Resume or Stop, and the status line is empty.
    for (const name of ['Pause', 'Resume', 'Stop'])
      expect(within(dialog).queryByRole('button', { name })).toBeNull();
    expect(within(dialog).getByRole('status').textContent).toBe('');
  });
});
