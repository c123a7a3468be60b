import type { VoiceProviderName } from '../../../../protocol/voice';
import { EmbeddedSfuTransport } from './transport/embedded-sfu-transport';
import type { VoiceTransport } from './transport/voice-transport';

/**
 * The transport for the provider the token endpoint named. LiveKit's client library is loaded with
 * a dynamic import, so the embedded default never downloads it.
 */
export async function createTransport(provider: VoiceProviderName): Promise<VoiceTransport> {
  if (provider === 'embedded') return new EmbeddedSfuTransport();
  const [{ LiveKitTransport }, { createLiveKitRoom }] = await Promise.all([
    import('./transport/livekit-transport'),
    import('./transport/livekit-room'),
  ]);
  return new LiveKitTransport(createLiveKitRoom);
}
