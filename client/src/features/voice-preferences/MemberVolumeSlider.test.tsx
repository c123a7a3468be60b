import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
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
    calls.push({
      url,
      method,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    if (method === 'GET')
      return Promise.resolve(Response.json({ rogerBeep: false, memberVolumes }));
    return Promise.resolve(Response.json({ memberId: 'u2', volume: 0 }));
  });
  return calls;
}

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
    await waitFor(() => expect((slider as HTMLInputElement).value).toBe('150'));
    expect(slider.getAttribute('aria-valuetext')).toBe('150%');
    expect(slider.getAttribute('max')).toBe('200');
    expect(screen.getByText('150%')).toBeTruthy();
  });

  it('changes the shared preferences at once and saves once the thumb rests', async () => {
    const calls = serve({});
    const queryClient = renderSlider();
    const slider = screen.getByRole('slider', { name: 'Volume for Cal Tester' });
    await waitFor(() => expect(calls.some((c) => c.method === 'GET')).toBe(true));
    await waitFor(() => expect(slider.getAttribute('aria-valuetext')).toBe('100%'));
    for (const value of ['105', '60', '0']) fireEvent.change(slider, { target: { value } });
    // The voice runtime follows this cache, so the audio changes before the server answers.
    expect(queryClient.getQueryData(VOICE_PREFERENCES_KEY)).toMatchObject({
      memberVolumes: { u2: 0 },
    });
    await waitFor(() => expect(slider.getAttribute('aria-valuetext')).toBe('0%'));
    expect(screen.getByText('0%')).toBeTruthy();
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'PUT')).toEqual([
        { url: '/api/voice-preferences/member-volumes/u2', method: 'PUT', body: { volume: 0 } },
      ]),
    );
  });

  it('saves at once when focus leaves mid-change', async () => {
    const calls = serve({});
    renderSlider();
    const slider = screen.getByRole('slider', { name: 'Volume for Cal Tester' });
    await waitFor(() => expect(calls.some((c) => c.method === 'GET')).toBe(true));
    fireEvent.change(slider, { target: { value: '150' } });
    fireEvent.blur(slider);
    // Well before the resting delay (400 ms).
    await waitFor(
      () =>
        expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
          { volume: 150 },
        ]),
      { timeout: 200 },
    );
  });
});
