import { API_PATHS } from '../../../../../protocol/api-paths';
import { startUsageSessionResponseSchema } from '../../../../../protocol/usage';
import {
  voiceProviderNameSchema,
  voiceTokenResponseSchema,
  type VoiceProviderName,
} from '../../../../../protocol/voice';
import { z } from 'zod';

const tokenRefusalSchema = z.object({ provider: voiceProviderNameSchema });
import type { AttemptFailure, RoomTarget } from './room-machine';

/**
 * The two requests of a connection attempt, classified into the machine's failure kinds. They use
 * `fetch` directly rather than `apiRequest` because the spec tells a 429, an abort and a rejected
 * fetch apart, and `apiRequest` folds them all into one Error.
 */
export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export type RequestResult<T> = { ok: true; value: T } | { ok: false; failure: AttemptFailure };

const jsonPost = (body: unknown, signal?: AbortSignal): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
  credentials: 'include',
  signal,
});

async function messageOf(res: Response): Promise<string | undefined> {
  try {
    const body = (await res.json()) as { message?: unknown };
    return typeof body.message === 'string' ? body.message : undefined;
  } catch {
    return undefined;
  }
}

/** POST /api/usage/session/start: 429 over the allowance, anything else blocks for safety. */
export async function startUsageSession(
  fetchFn: Fetch,
  channelId: number,
): Promise<RequestResult<string>> {
  try {
    const res = await fetchFn(API_PATHS.usageSessionStart, jsonPost({ channelId }));
    if (res.status === 429)
      return { ok: false, failure: { kind: 'overLimit', message: await messageOf(res) } };
    if (!res.ok) return { ok: false, failure: { kind: 'sessionFailed' } };
    const { sessionId } = startUsageSessionResponseSchema.parse(await res.json());
    return { ok: true, value: sessionId };
  } catch {
    return { ok: false, failure: { kind: 'sessionFailed' } };
  }
}

/** POST /api/usage/session/end; spec §7: failure is only logged. */
export async function endUsageSession(fetchFn: Fetch, sessionId: string): Promise<void> {
  try {
    // keepalive lets the request outlive the page when the tab is closing.
    const res = await fetchFn(API_PATHS.usageSessionEnd, {
      ...jsonPost({ sessionId }),
      keepalive: true,
    });
    if (!res.ok) console.warn('voice: ending the usage session failed', res.status);
  } catch (error) {
    console.warn('voice: ending the usage session failed', error);
  }
}

export type TokenGrant = { provider: VoiceProviderName; url: string; token: string };

/** The provider a refusal names (the server adds it to every token error), if any. */
async function providerOf(res: Response): Promise<VoiceProviderName | undefined> {
  try {
    const parsed = tokenRefusalSchema.safeParse(await res.json());
    return parsed.success ? parsed.data.provider : undefined;
  } catch {
    return undefined;
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** POST /api/livekit-token, aborted after `timeoutMs` (spec §9: 10 s). */
export async function fetchVoiceToken(
  fetchFn: Fetch,
  target: RoomTarget,
  timeoutMs: number,
): Promise<RequestResult<TokenGrant>> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetchFn(
      API_PATHS.voiceToken,
      jsonPost(
        { channelId: target.channelId, userId: target.userId, userName: target.userName },
        controller.signal,
      ),
    );
    if (!res.ok)
      return {
        ok: false,
        failure: {
          kind: 'tokenFailed',
          statusText: res.statusText || String(res.status),
          provider: await providerOf(res),
        },
      };
    const grant = voiceTokenResponseSchema.parse(await res.json());
    if (!grant.configured)
      return { ok: false, failure: { kind: 'notConfigured', provider: grant.provider } };
    return { ok: true, value: { provider: grant.provider, url: grant.url, token: grant.token } };
  } catch (error) {
    if (isAbort(error) || controller.signal.aborted)
      return { ok: false, failure: { kind: 'timeout' } };
    // fetch rejects with a TypeError exactly when no response arrived.
    if (error instanceof TypeError) return { ok: false, failure: { kind: 'network' } };
    return { ok: false, failure: { kind: 'failed' } };
  } finally {
    clearTimeout(timer);
  }
}
