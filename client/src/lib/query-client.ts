import { QueryClient, type QueryFunction, type QueryKey } from '@tanstack/react-query';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Spec §8: a non-OK response becomes `Error("<status>: <body text or status text>")`. */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text()) || res.statusText;
  throw new Error(`${res.status}: ${text}`);
}

/** The HTTP status carried by an error from `throwIfResNotOk`, or undefined for other errors. */
export function errorStatus(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = /^(\d{3}): /.exec(error.message);
  return match ? Number(match[1]) : undefined;
}

/**
 * One request with the session cookie and a JSON body when given (spec §7).
 * Resolves with the response once it is OK; rejects with the spec §8 error otherwise.
 */
export async function apiRequest(
  method: HttpMethod,
  url: string,
  body?: unknown,
): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
}

/**
 * Checks a response body against its wire schema. Structural, so this module needs no zod at
 * run time (the landing page never loads it): callers pass a `protocol/` schema.
 */
export type Parser<T> = { parse(data: unknown): T };

/** `apiRequest`, then the response read as JSON and checked with `parser` (never cast). */
export async function apiJson<T>(
  parser: Parser<T>,
  method: HttpMethod,
  url: string,
  body?: unknown,
): Promise<T> {
  const res = await apiRequest(method, url, body);
  const text = await res.text();
  return parser.parse(text ? JSON.parse(text) : undefined);
}

/** Spec §7: the default query is a GET to the key parts joined by slashes. */
export function queryKeyToUrl(queryKey: QueryKey): string {
  return queryKey
    .filter((part): part is string | number => typeof part === 'string' || typeof part === 'number')
    .map((part) => `${part}`)
    .join('/');
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/** A query function for `queryKey`'s URL; with `on401: 'returnNull'` a 401 resolves to null. */
export function getQueryFn<T>(options: { on401: 'returnNull' }): QueryFunction<T | null>;
export function getQueryFn<T>(options: { on401: 'throw' }): QueryFunction<T>;
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKeyToUrl(queryKey), { credentials: 'include', signal });
    if (on401 === 'returnNull' && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/**
 * A query function for `queryKey`'s URL whose answer is checked with `parser`. With `failure`,
 * any failure (non-OK, unreadable or malformed body) raises exactly that text — spec §8's
 * "Failed to fetch user channels / all channels / members / invite" — and the cause is logged.
 */
export function parsedQuery<T>(parser: Parser<T>, failure?: string): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const url = queryKeyToUrl(queryKey);
    try {
      const res = await fetch(url, { credentials: 'include', signal });
      await throwIfResNotOk(res);
      return parser.parse(await res.json());
    } catch (error) {
      if (failure === undefined || signal.aborted) throw error;
      console.error(`${failure}: GET ${url}`, error);
      throw new Error(failure, { cause: error });
    }
  };
}

/** A client with the spec §7 defaults: default GET query, 401 throws, no retries, never stale. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}

/** The app's one query client. */
export const queryClient = createQueryClient();
