import type { VoiceProviderName } from '../../../../protocol/voice';
import type { VoiceTransport } from './transport/voice-transport';

/**
 * The transport for the provider the token endpoint named, loaded when a room first connects:
 * neither the built-in SFU's WebRTC code nor LiveKit's library rides on the first load.
 */
export async function createTransport(provider: VoiceProviderName): Promise<VoiceTransport> {
  if (provider === 'embedded') {
    const { EmbeddedSfuTransport } = await import('./transport/embedded-sfu-transport');
    return new EmbeddedSfuTransport();
  }
  const [{ LiveKitTransport }, { createLiveKitRoom }] = await Promise.all([
    import('./transport/livekit-transport'),
    import('./transport/livekit-room'),
  ]);
  return new LiveKitTransport(createLiveKitRoom);
}
