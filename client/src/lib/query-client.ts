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

/** `apiRequest` and read the response as JSON; an empty body resolves to `undefined`. */
export async function apiJson<T>(method: HttpMethod, url: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, url, body);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
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
