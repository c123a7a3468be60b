/** Spec §7: GET /api/usage, refetched every 60 s (§9). */
export const USAGE_KEY = ['/api/usage'] as const;
export const USAGE_REFETCH_MS = 60_000;
export const PAY_AS_YOU_GO_ENABLE_URL = '/api/usage/pay-as-you-go/enable';
