/** Spec §9: the retry delay starts at 3000 ms, doubles per attempt and is capped at 10000 ms. */
export const RETRY_BASE_MS = 3000;
export const RETRY_CAP_MS = 10_000;
/** Spec §9: automatic reconnect retries after a disconnect. */
export const MAX_RETRIES = 2;

/** The delay before retry number `retry` (0-based). */
export function retryDelayMs(retry: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** retry, RETRY_CAP_MS);
}
