import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../lib/query-client';
import { MemberVolumeSlider } from './MemberVolumeSlider';
import { VOICE_PREFERENCES_KEY } from './voice-preferences-query';

type Call = { url: string; method: string; body: unknown };

/** The server edge: the stored preferences, and a record of what the slider saved. */
function serve(memberVolumes: Record<string, number>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : input.toString();
    const method = init?.method ?? 'GET';
    calls.push({ url, method, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
    if (method === 'GET')
      return Promise.resolve(Response.json({ rogerBeep: false, memberVolumes }));
    return Promise.resolve(Response.json({ memberId: 'u2', volume: 0 }));
  });
  return calls;
}

beforeAll(() => {
  // jsdom lays nothing out; Radix's slider only needs the observer to exist.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});

afterEach(() => {
  cleanup();
});

function renderSlider() {
  const queryClient = createQueryClient();
  render(
    <QueryClientProvider client={queryClient}>
      <MemberVolumeSlider memberId="u2" name="Cal Tester" />
    </QueryClientProvider>,
  );
  return queryClient;
}

describe('MemberVolumeSlider', () => {
  it('shows the stored volume with an accessible name and value', async () => {
    serve({ u2: 150 });
    renderSlider();
    const slider = screen.getByRole('slider', { name: 'Volume for Cal Tester' });
    await waitFor(() => expect(slider.getAttribute('aria-valuenow')).toBe('150'));
    expect(slider.getAttribute('aria-valuetext')).toBe('150%');
    expect(slider.getAttribute('aria-valuemax')).toBe('200');
    expect(screen.getByText('150%')).toBeTruthy();
  });

  it('moves with the keyboard, changes the shared preferences at once and saves them', async () => {
    const calls = serve({});
    const queryClient = renderSlider();
    const slider = screen.getByRole('slider', { name: 'Volume for Cal Tester' });
    await waitFor(() => expect(calls.some((c) => c.method === 'GET')).toBe(true));
    await waitFor(() => expect(slider.getAttribute('aria-valuenow')).toBe('100'));
    act(() => slider.focus());
    act(() => {
      fireEvent.keyDown(slider, { key: 'ArrowRight' });
    });
    // The voice runtime follows this cache, so the audio changes before the server answers.
    expect(queryClient.getQueryData(VOICE_PREFERENCES_KEY)).toMatchObject({
      memberVolumes: { u2: 105 },
    });
    await waitFor(() => expect(slider.getAttribute('aria-valuenow')).toBe('105'));
    expect(screen.getByText('105%')).toBeTruthy();
    act(() => {
      fireEvent.keyDown(slider, { key: 'Home' });
    });
    await waitFor(() => expect(slider.getAttribute('aria-valuenow')).toBe('0'));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'PUT')).toEqual([
        { url: '/api/voice-preferences/member-volumes/u2', method: 'PUT', body: { volume: 105 } },
        { url: '/api/voice-preferences/member-volumes/u2', method: 'PUT', body: { volume: 0 } },
      ]),
    );
  });
});
