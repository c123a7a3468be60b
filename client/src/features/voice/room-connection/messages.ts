import { FREE_TIER_LIMIT_MESSAGE } from '../../../../../protocol/usage';
import type { VoiceProviderName } from '../../../../../protocol/voice';

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
 * The spec writes the provider as "{provider}": the provider this server actually uses, as the
 * token endpoint names it in every answer, refusals included. The built-in SFU is shown by what it
 * is rather than by its configuration value.
 */
export const PROVIDER_DISPLAY_NAMES: Record<VoiceProviderName, string> = {
  embedded: 'built-in voice',
  LiveKit: 'LiveKit',
};

/** When an answer named no provider at all (a proxy's error page): the spec's own wording. */
const UNNAMED_PROVIDER: VoiceProviderName = 'LiveKit';

/** "Failed to get {provider} token: <status text>" (spec §8). */
export function tokenFailedMessage(statusText: string, provider?: VoiceProviderName): string {
  return `Failed to get ${PROVIDER_DISPLAY_NAMES[provider ?? UNNAMED_PROVIDER]} token: ${statusText}`;
}

/** "Voice features require {provider} configuration" (spec §5). */
export function notConfiguredMessage(provider: VoiceProviderName): string {
  return `Voice features require ${PROVIDER_DISPLAY_NAMES[provider]} configuration`;
}
