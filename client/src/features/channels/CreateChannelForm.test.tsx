import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../lib/query-client';
import { Toaster } from '../../ui/Toaster';
import { clearToasts } from '../../ui/toast-store';
import { CreateChannelForm } from './CreateChannelForm';

type Call = { url: string; init: RequestInit | undefined };

/** Answers every request at the network edge with `response`, recording the calls. */
function serve(response: () => Response): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: input instanceof Request ? input.url : input.toString(), init });
    return Promise.resolve(response());
  });
  return calls;
}

function renderForm(onCreated = vi.fn()) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <CreateChannelForm onCreated={onCreated} />
      <Toaster />
    </QueryClientProvider>,
  );
  return {
    onCreated,
    input: screen.getByLabelText('Channel name'),
    submit: screen.getByRole('button', { name: 'Create Channel' }),
  };
}

afterEach(() => {
  cleanup();
  act(() => clearToasts());
  vi.unstubAllGlobals();
});

describe('CreateChannelForm', () => {
  it('says nothing on an untouched form, even after focus leaves it', () => {
    serve(() => Response.json({}));
    const { input, submit } = renderForm();
    fireEvent.focus(input);
    fireEvent.blur(input);
    expect(screen.queryByText('Channel name cannot be empty')).toBeNull();
    expect(submit.hasAttribute('disabled')).toBe(true);
  });

  it('cannot be submitted empty and says why', () => {
    const calls = serve(() => Response.json({}));
    const { input, submit } = renderForm();
    expect(submit.hasAttribute('disabled')).toBe(true);
    fireEvent.change(input, { target: { value: '   ' } });
    expect(screen.getByText('Channel name cannot be empty')).toBeTruthy();
    expect(submit.hasAttribute('disabled')).toBe(true);
    fireEvent.submit(input.closest('form')!);
    // A name of only zero-width and bidi characters looks empty and is empty.
    fireEvent.change(input, { target: { value: '\u200b\u202e\u2066' } });
    expect(screen.getByText('Channel name cannot be empty')).toBeTruthy();
    expect(submit.hasAttribute('disabled')).toBe(true);
    fireEvent.submit(input.closest('form')!);
    expect(calls).toHaveLength(0);
  });

  it('sends the trimmed name and reports the new channel', async () => {
    const channel = {
      id: 4,
      name: 'Family',
      createdBy: 'u1',
      memberCount: 1,
      talkMode: 'open',
      maxTransmissionSeconds: 60,
      keepTransmissions: true,
      sos: false,
      sosSeconds: 10,
    };
    const calls = serve(() => Response.json(channel, { status: 201 }));
    const { input, submit, onCreated } = renderForm();
    fireEvent.change(input, { target: { value: '  Family  ' } });
    fireEvent.click(submit);
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(channel));
    const post = calls.find((call) => call.init?.method === 'POST');
    expect(post?.url).toBe('/api/channels');
    expect(post?.init?.body).toBe('{"name":"Family"}');
    expect((input as HTMLInputElement).value).toBe('');
  });

  it('toasts Error / Failed to create channel when the server refuses', async () => {
    serve(() => Response.json({ error: 'Only admins can create channels' }, { status: 403 }));
    const { input, submit, onCreated } = renderForm();
    fireEvent.change(input, { target: { value: 'Family' } });
    fireEvent.click(submit);
    expect(await screen.findByText('Failed to create channel')).toBeTruthy();
    expect(screen.getByText('Error')).toBeTruthy();
    expect(onCreated).not.toHaveBeenCalled();
    expect((input as HTMLInputElement).value).toBe('Family');
  });
});
