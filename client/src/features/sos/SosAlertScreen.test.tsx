import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { Channel } from '../../../../protocol/channels';
import type { SosAlert } from '../../../../protocol/sos';
import { createQueryClient } from '../../lib/query-client';
import { sosAlerts } from './sos-alerts-store';
import { SosAlertScreen } from './SosAlertScreen';
import { sosAlert } from './sos-test-data';

const family: Channel = {
  id: 7,
  name: 'Family',
  createdBy: 'olivia',
  memberCount: 4,
  talkMode: 'walkie',
  maxTransmissionSeconds: 60,
  keepTransmissions: true,
  sos: true,
  sosSeconds: 10,
};
const located = sosAlert({
  location: {
    latitude: 51.501354,
    longitude: -0.141889,
    accuracy: 12.4,
    at: '2026-11-27T12:00:03.000Z',
  },
  acks: [{ user: { id: 'ben', name: 'Ben' }, at: '2026-11-27T12:00:20.000Z' }],
  transmissions: [{ id: 'tx-1', durationMs: 9_800 }],
});
const BEN = { id: 'ben', subscriptionTier: 'free' } as const;
const DEE = { id: 'dee', subscriptionTier: 'free' } as const;
const AVA = { id: 'ava', subscriptionTier: 'free' } as const;
const OLIVIA = { id: 'olivia', subscriptionTier: 'admin' } as const;

type Request = { method: string; path: string };

function renderScreen(
  user: { id: string; subscriptionTier: 'free' | 'admin' },
  alerts: SosAlert[] = [located],
  answer: (request: Request) => unknown = () => located,
) {
  const requests: Request[] = [];
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
    const request = {
      method: init?.method ?? 'GET',
      path: new URL(input, 'http://chirp.test').pathname,
    };
    requests.push(request);
    return Promise.resolve(new Response(JSON.stringify(answer(request)), { status: 200 }));
  });
  const onMinimise = vi.fn();
  const onShow = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SosAlertScreen
        alerts={alerts}
        user={user}
        channels={[family]}
        sent={null}
        onMinimise={onMinimise}
        onShow={onShow}
      />
    </QueryClientProvider>,
  );
  return {
    requests,
    onMinimise,
    onShow,
    dialog: screen.getByRole('alertdialog', { name: 'SOS from Ava' }),
  };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sosAlerts.clear();
});

describe('the SOS alert screen', { timeout: 15_000 }, () => {
  it('shows who, where (5 decimals, accuracy, a geo: and an OpenStreetMap link), the audio and who is on it', () => {
    const { dialog } = renderScreen(DEE);
    expect(within(dialog).getByText(/in Family · Raised at/)).toBeTruthy();
    expect(within(dialog).getByTestId('sos-coordinates').textContent).toBe('51.50135, -0.14189');
    expect(within(dialog).getByText(/± 12 m/)).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Open in Maps' }).getAttribute('href')).toBe(
      'geo:51.50135,-0.14189',
    );
    expect(within(dialog).getByRole('link', { name: 'OpenStreetMap' }).getAttribute('href')).toBe(
      'https://www.openstreetmap.org/?mlat=51.50135&mlon=-0.14189#map=17/51.50135/-0.14189',
    );
    expect(within(dialog).getByLabelText('SOS recording 1').getAttribute('src')).toBe(
      '/api/channels/7/transmissions/tx-1/audio',
    );
    expect(within(dialog).getByText('Ben is on it')).toBeTruthy();
  });

  it('says Recording… while the sender talks and nothing is kept yet, and no location when none', () => {
    renderScreen(DEE, [sosAlert({ talkUntil: Date.now() + 8_000 })]);
    expect(screen.getByText('Recording…')).toBeTruthy();
    expect(screen.getByText('No location shared')).toBeTruthy();
  });

  it("I'm on it posts the answer, then says You are on it; a member cannot resolve", async () => {
    const acked = {
      ...located,
      acks: [...located.acks, { user: { id: 'dee', name: 'Dee' }, at: '2026-11-27T12:00:30.000Z' }],
    };
    sosAlerts.receive(located);
    const { requests } = renderScreen(DEE, [located], () => acked);
    expect(screen.queryByRole('button', { name: 'Mark resolved' })).toBeNull();
    const ack = screen.getByRole('button', { name: "I'm on it" });
    expect(document.activeElement).toBe(ack);
    fireEvent.click(ack);
    await waitFor(() =>
      expect(requests).toEqual([{ method: 'POST', path: `/api/sos/${located.id}/ack` }]),
    );
    await waitFor(() => expect(sosAlerts.get(located.id)?.acks).toHaveLength(2));
    cleanup();
    renderScreen(DEE, [acked]);
    expect(screen.getByText('You are on it')).toBeTruthy();
    expect(screen.queryByRole('button', { name: "I'm on it" })).toBeNull();
  });

  it('the sender sees their alert with the acks and may resolve it, but not answer it', async () => {
    const { requests } = renderScreen(AVA, [located], () => ({
      ...located,
      resolvedAt: '2026-11-27T12:05:00.000Z',
      resolvedBy: { id: 'ava', name: 'Ava' },
    }));
    expect(screen.getByText('Ben is on it')).toBeTruthy();
    expect(screen.queryByRole('button', { name: "I'm on it" })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Mark resolved' }));
    await waitFor(() =>
      expect(requests).toEqual([{ method: 'POST', path: `/api/sos/${located.id}/resolve` }]),
    );
  });

  it("the channel's admin may resolve it; another member may not", () => {
    renderScreen(OLIVIA);
    expect(screen.getByRole('button', { name: 'Mark resolved' })).toBeTruthy();
    cleanup();
    renderScreen(BEN);
    expect(screen.queryByRole('button', { name: 'Mark resolved' })).toBeNull();
  });

  it('Escape or Minimise folds it away; several alerts say how many more', () => {
    const older = sosAlert({
      id: '1b6c3f0e-1d1e-4a43-9a3e-6d2f0c1b2a3d',
      sender: { id: 'cid', name: 'Cid' },
    });
    const { onMinimise, onShow, dialog } = renderScreen(DEE, [located, older]);
    fireEvent.click(within(dialog).getByRole('button', { name: '1 more alert' }));
    expect(onShow).toHaveBeenCalledWith(older.id);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onMinimise).toHaveBeenCalled();
    onMinimise.mockClear();
    fireEvent.click(screen.getByRole('button', { name: 'Minimise' }));
    expect(onMinimise).toHaveBeenCalledTimes(1);
  });
});
