/** Spec §7: GET /api/usage, refetched every 60 s (§9). */
export const USAGE_KEY = ['/api/usage'] as const;
export const USAGE_REFETCH_MS = 60_000;

/** Spec §7: turning pay-as-you-go on and off. */
export const PAY_AS_YOU_GO_URLS = {
  enable: '/api/usage/pay-as-you-go/enable',
  disable: '/api/usage/pay-as-you-go/disable',
} as const;
