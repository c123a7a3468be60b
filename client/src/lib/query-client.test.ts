import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  apiJson,
  apiRequest,
  createQueryClient,
  errorStatus,
  getQueryFn,
  parsedQuery,
  queryKeyToUrl,
  throwIfResNotOk,
} from './query-client';

type Call = { url: string; init: RequestInit | undefined };

/** Replaces the network edge (global fetch) with one canned response, recording each call. */
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
});

describe('throwIfResNotOk', () => {
  it('formats a failure as "status: body"', async () => {
    const res = new Response('Free tier limit exceeded - cannot connect', { status: 429 });
    await expect(throwIfResNotOk(res)).rejects.toThrow(
      new Error('429: Free tier limit exceeded - cannot connect'),
    );
  });

  it('falls back to the status text when the body is empty', async () => {
    const res = new Response(null, { status: 503, statusText: 'Service Unavailable' });
    await expect(throwIfResNotOk(res)).rejects.toThrow(new Error('503: Service Unavailable'));
  });

  it('passes OK responses', async () => {
    await expect(throwIfResNotOk(new Response('{}', { status: 200 }))).resolves.toBeUndefined();
  });
});

describe('apiRequest', () => {
  it('sends cookies and a JSON body with a JSON content type', async () => {
    const calls = serve(() => Response.json({ id: 7 }));
    const res = await apiRequest('POST', '/api/channels', { name: 'Family' });
    expect(await res.json()).toEqual({ id: 7 });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('/api/channels');
    expect(calls[0]?.init?.method).toBe('POST');
    expect(calls[0]?.init?.credentials).toBe('include');
    expect(calls[0]?.init?.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(calls[0]?.init?.body).toBe('{"name":"Family"}');
  });

  it('sends no body or content type without a payload', async () => {
    const calls = serve(() => new Response(null, { status: 204 }));
    await apiRequest('DELETE', '/api/channels/3');
    expect(calls[0]?.init?.body).toBeUndefined();
    expect(calls[0]?.init?.headers).toEqual({});
  });

  it('rejects with the spec error message', async () => {
    serve(() => Response.json({ message: 'Forbidden' }, { status: 403 }));
    const failure = apiRequest('POST', '/api/channels', { name: 'x' });
    await expect(failure).rejects.toThrow('403: {"message":"Forbidden"}');
  });
});

describe('apiJson', () => {
  const invite = z.object({ inviteUrl: z.string() });

  it('reads JSON and checks it against the schema', async () => {
    serve(() => Response.json({ inviteUrl: 'http://x/?channel=1' }));
    await expect(apiJson(invite, 'GET', '/api/invite/generate?channelId=1')).resolves.toEqual({
      inviteUrl: 'http://x/?channel=1',
    });
  });

  it('rejects a body that does not match instead of passing it on', async () => {
    serve(() => Response.json({ inviteUrl: 42 }));
    await expect(apiJson(invite, 'GET', '/api/invite/generate?channelId=1')).rejects.toThrow();
  });
});

describe('parsedQuery', () => {
  const channels = z.array(z.object({ id: z.number() }));

  it('GETs the key, parses the answer and drops unknown fields', async () => {
    serve(() => Response.json([{ id: 1, extra: true }]));
    const data = await createQueryClient().fetchQuery({
      queryKey: ['/api/channels'],
      queryFn: parsedQuery(channels),
    });
    expect(data).toEqual([{ id: 1 }]);
  });

  it('raises the spec §8 text on failure, whatever the cause', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    serve(() => new Response('boom', { status: 500 }));
    const client = createQueryClient();
    const fetchChannels = () =>
      client.fetchQuery({
        queryKey: ['/api/users', 'u1', 'channels'],
        queryFn: parsedQuery(channels, 'Failed to fetch user channels'),
      });
    await expect(fetchChannels()).rejects.toThrow(new Error('Failed to fetch user channels'));
    serve(() => Response.json([{ id: 'not a number' }]));
    client.clear();
    await expect(fetchChannels()).rejects.toThrow(new Error('Failed to fetch user channels'));
  });

  it('keeps the "status: body" error without a failure text', async () => {
    serve(() => new Response('nope', { status: 403 }));
    await expect(
      createQueryClient().fetchQuery({ queryKey: ['/api/users'], queryFn: parsedQuery(channels) }),
    ).rejects.toThrow('403: nope');
  });
});

describe('errorStatus', () => {
  it('reads the status back from a request error', () => {
    expect(errorStatus(new Error('409: already'))).toBe(409);
    expect(errorStatus(new Error('Network error'))).toBeUndefined();
    expect(errorStatus('nope')).toBeUndefined();
  });
});

describe('queries', () => {
  it('joins the key parts with slashes', () => {
    expect(queryKeyToUrl(['/api/users', 'u1', 'channels'])).toBe('/api/users/u1/channels');
    expect(queryKeyToUrl(['/api/channels', 4, 'members'])).toBe('/api/channels/4/members');
  });

  it('returns null on 401 when asked to', async () => {
    serve(() => Response.json({ message: 'Unauthorized' }, { status: 401 }));
    const client = createQueryClient();
    const data = await client.fetchQuery({
      queryKey: ['/api/auth/user'],
      queryFn: getQueryFn({ on401: 'returnNull' }),
    });
    expect(data).toBeNull();
  });

  it('throws on 401 by default, without retrying', async () => {
    const calls = serve(() => Response.json({ message: 'Unauthorized' }, { status: 401 }));
    const client = createQueryClient();
    await expect(client.fetchQuery({ queryKey: ['/api/users'] })).rejects.toThrow(
      '401: {"message":"Unauthorized"}',
    );
    expect(calls).toHaveLength(1);
  });

  it('GETs the joined key with cookies and reads JSON', async () => {
    const calls = serve(() => Response.json([{ id: 1, name: 'Family' }]));
    const client = createQueryClient();
    const data = await client.fetchQuery({ queryKey: ['/api/users', 'u1', 'channels'] });
    expect(data).toEqual([{ id: 1, name: 'Family' }]);
    expect(calls[0]?.url).toBe('/api/users/u1/channels');
    expect(calls[0]?.init?.credentials).toBe('include');
    expect(calls[0]?.init?.method).toBeUndefined();
  });

  it('has the spec defaults: no retries, no refetch on focus, never stale', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries?.retry).toBe(false);
    expect(queries?.refetchOnWindowFocus).toBe(false);
    expect(queries?.staleTime).toBe(Infinity);
    expect(mutations?.retry).toBe(false);
  });
});
