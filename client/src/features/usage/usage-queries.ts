import { API_PATHS } from '../../../../protocol/api-paths';
/** Spec §7: GET /api/usage, refetched every 60 s (§9). */
export const USAGE_KEY = [API_PATHS.usage] as const;
export const USAGE_REFETCH_MS = 60_000;

/** Spec §7: turning pay-as-you-go on and off. */
export const PAY_AS_YOU_GO_URLS = {
  enable: API_PATHS.payAsYouGoEnable,
  disable: API_PATHS.payAsYouGoDisable,
} as const;
