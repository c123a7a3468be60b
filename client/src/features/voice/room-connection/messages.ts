import { FREE_TIER_LIMIT_MESSAGE } from '../../../../../protocol/usage';

/**
 * Spec §8, word for word: these texts are shown to users and asserted by tests, so they live in
 * one place and nothing else spells them.
 */
export const VOICE_ERRORS = {
  freeTierLimit: FREE_TIER_LIMIT_MESSAGE,
  usageTracking: 'Failed to start usage tracking - connection blocked for safety',
  timedOut: 'Connection timed out - please check your internet connection and try again',
  network: 'Network error - please check your internet connection',
  connectFailed: 'Failed to connect to voice room',
  microphoneDenied: 'Microphone access denied - please allow microphone permissions',
} as const;

/**
 * The spec writes the provider as "{provider}". The token endpoint issues LiveKit-format tokens for
 * both providers (DESIGN §3), so a failed request names LiveKit; "configured: false" only ever
 * comes from the LiveKit provider, whose display name is "LiveKit" as well.
 */
export const TOKEN_PROVIDER_NAME = 'LiveKit';

/** "Failed to get LiveKit token: <status text>" (spec §8). */
export function tokenFailedMessage(statusText: string, provider = TOKEN_PROVIDER_NAME): string {
  return `Failed to get ${provider} token: ${statusText}`;
}

/** "Voice features require LiveKit configuration" (spec §5). */
export function notConfiguredMessage(provider = TOKEN_PROVIDER_NAME): string {
  return `Voice features require ${provider} configuration`;
}
