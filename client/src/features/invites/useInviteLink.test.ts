import { afterEach, describe, expect, it, vi } from 'vitest';
import { mintInviteLink } from './useInviteLink';

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

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('mintInviteLink', () => {
  it('mints with a POST of the channel id, never a GET a link elsewhere could repeat', async () => {
    const calls = serve(() =>
      Response.json({ inviteUrl: 'https://chirp.example/?channel=7&invite=abc' }),
    );
    await expect(mintInviteLink(7)).resolves.toEqual({
      inviteUrl: 'https://chirp.example/?channel=7&invite=abc',
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('/api/invite/generate');
    expect(calls[0]!.init?.method).toBe('POST');
    expect(calls[0]!.init?.credentials).toBe('include');
    expect(calls[0]!.init?.body).toBe(JSON.stringify({ channelId: 7 }));
  });

  it('raises the spec text "Failed to fetch invite" on a refusal or a malformed answer', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    serve(() =>
      Response.json({ message: 'You are not a member of this channel' }, { status: 403 }),
    );
    await expect(mintInviteLink(7)).rejects.toThrow('Failed to fetch invite');
    serve(() => Response.json({ inviteUrl: 42 }));
    await expect(mintInviteLink(7)).rejects.toThrow('Failed to fetch invite');
  });
});
