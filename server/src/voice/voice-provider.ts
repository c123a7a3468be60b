import type { VoiceProviderName } from '../../../protocol/voice.js';

/**
 * What the app needs from whichever server carries channel audio: the built-in SFU (one machine)
 * or LiveKit (scale-out). Tokens have LiveKit's format for both.
 */
export interface VoiceProvider {
  readonly name: VoiceProviderName;
  /** False only when LiveKit is selected but its URL or keys are missing. */
  readonly configured: boolean;
  /** Key and secret the provider verifies voice tokens with. */
  readonly apiKey: string;
  readonly apiSecret: string;
  /** Where the browser connects with its token. */
  url(): string;
  /** Admin mute: the provider stops carrying the user's audio in that channel at once. */
  setPublisherMuted(channelId: number, userId: string, muted: boolean): Promise<void>;
  /** The user may no longer be in the channel (removed, or left). */
  disconnectUser(channelId: number, userId: string): Promise<void>;
  /** The channel is gone. */
  closeRoom(channelId: number): Promise<void>;
}
