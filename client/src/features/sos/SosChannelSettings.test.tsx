import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../lib/query-client';
import { SosChannelSettings } from './SosChannelSettings';

type Put = { path: string; body: unknown };

function renderSettings(channel = { id: 7, sos: false, sosSeconds: 10 }) {
  const puts: Put[] = [];
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
    const path = new URL(input, 'http://chirp.test').pathname;
    if (init?.method === 'PUT') {
      const body = JSON.parse(init.body as string) as { sos: boolean; sosSeconds?: number };
      puts.push({ path, body });
      return Promise.resolve(
        new Response(
          JSON.stringify({ sos: body.sos, sosSeconds: body.sosSeconds ?? channel.sosSeconds }),
          { status: 200 },
        ),
      );
    }
    return Promise.resolve(new Response('[]', { status: 200 }));
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SosChannelSettings channel={channel} />
    </QueryClientProvider>,
  );
  return puts;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the SOS channel switch', { timeout: 15_000 }, () => {
  it('marks the channel an SOS channel at once, with a one-line explanation', async () => {
    const puts = renderSettings();
    const toggle = screen.getByRole('switch', { name: 'SOS channel' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(toggle.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.queryByLabelText('SOS talk time (seconds)')).toBeNull();
    fireEvent.click(toggle);
    await waitFor(() =>
      expect(puts).toEqual([{ path: '/api/channels/7/sos', body: { sos: true } }]),
    );
    expect(toggle.getAttribute('aria-checked')).toBe('true');
  });

  it('saves an SOS talk time within 5–30 s, and refuses one outside without asking the server', async () => {
    const puts = renderSettings({ id: 7, sos: true, sosSeconds: 10 });
    const seconds = screen.getByLabelText('SOS talk time (seconds)');
    expect((seconds as HTMLInputElement).value).toBe('10');
    fireEvent.change(seconds, { target: { value: '45' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save SOS talk time' }));
    expect(screen.getByRole('alert').textContent).toBe('SOS talk time must be at most 30 seconds');
    expect(puts).toEqual([]);
    fireEvent.change(seconds, { target: { value: '20' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save SOS talk time' }));
    await waitFor(() =>
      expect(puts).toEqual([{ path: '/api/channels/7/sos', body: { sos: true, sosSeconds: 20 } }]),
    );
  });

  it('turned off, the channel is no longer an SOS channel', async () => {
    const puts = renderSettings({ id: 7, sos: true, sosSeconds: 15 });
    fireEvent.click(screen.getByRole('switch', { name: 'SOS channel' }));
    await waitFor(() =>
      expect(puts).toEqual([{ path: '/api/channels/7/sos', body: { sos: false } }]),
    );
  });
});
