import type { VoiceProviderName } from '../../../../protocol/voice';
import { EmbeddedSfuTransport } from './transport/embedded-sfu-transport';
import { VoiceTransportError, type VoiceTransport } from './transport/voice-transport';

/**
 * The transport for the provider the token endpoint named. LiveKit's client library is not part of
 * the build yet: `transport/livekit-transport.ts` is ready behind a port, but its adapter needs the
 * package (see voice/CONTEXT.md). Until then that provider fails as "Failed to connect to voice
 * room" instead of shipping a half-working transport. The LiveKit branch must stay a dynamic
 * import so the embedded default never downloads it.
 */
export function createTransport(provider: VoiceProviderName): Promise<VoiceTransport> {
  if (provider === 'embedded') return Promise.resolve(new EmbeddedSfuTransport());
  return Promise.reject(
    new VoiceTransportError('failed', 'The LiveKit client transport is not installed'),
  );
}
