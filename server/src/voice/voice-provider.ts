import type { VoiceProviderName } from '../../../protocol/voice.js';
import type { FloorFollower, VoiceFloor } from '../floor/floor-follower.js';

/**
 * What the app needs from whichever server carries channel audio: the built-in SFU (one machine)
 * or LiveKit (scale-out). Tokens have LiveKit's format for both.
 */
export interface VoiceProvider extends FloorFollower {
  readonly name: VoiceProviderName;
  /** False only when LiveKit is selected but its URL or keys are missing. */
  readonly configured: boolean;
  /** Key and secret the provider verifies voice tokens with. */
  readonly apiKey: string;
  readonly apiSecret: string;
  /** Where the browser connects with its token. */
  url(): string;
  /** The voice room of a channel (LiveKit's carries the deployment's room prefix). */
  roomName(channelId: number): string;
  /**
   * Admin mute: the provider stops carrying the user's audio in that channel at once. These three
   * reject when the voice server could not do it, so the caller can refuse the change (see
   * `channels/voice-server-error.ts`); a user or room that is simply not connected is not an error.
   */
  setPublisherMuted(channelId: number, userId: string, muted: boolean): Promise<void>;
  /**
   * Walkie-talkie floor: from now on only `holderId` is carried in a walkie channel
   * (nobody while null); `walkie: false` carries everyone not admin-muted again. `modeChanged`
   * says the channel's talk mode itself changed (everyone's permission is set again).
   */
  setFloor(channelId: number, floor: VoiceFloor): Promise<void>;
  /**
   * A block between two users was made (`blocked`) or removed: from now on neither one's audio
   * reaches the other (in every channel), or both hear each other again. Called with `false` only
   * when no block stands between them any more (either way); joins learn the blocks of the moment
   * from the admission check.
   */
  blockChanged(blockerId: string, blockedId: string, blocked: boolean): Promise<void>;
  /** The user may no longer be in the channel (removed, or left). */
  disconnectUser(channelId: number, userId: string): Promise<void>;
  /** The channel is gone. */
  closeRoom(channelId: number): Promise<void>;
  /**
   * An SOS countdown (decision 054): while `armed`, the user's microphone may be published muted in
   * the channel's room whatever the floor says, so the SOS is an unmute; unarmed, their rights
   * follow the floor and admin mute again. Resolves whether the user was in the room to arm.
   * Only LiveKit has it: the built-in SFU forwards a new holder's open stream at once.
   */
  setSosArmed?(channelId: number, userId: string, armed: boolean): Promise<boolean>;
}

/** A provider that carries no audio and has nothing to tell (tests that wrap or stand in for one). */
export const noVoiceProvider: VoiceProvider = {
  name: 'embedded',
  configured: false,
  apiKey: '',
  apiSecret: '',
  url: () => '',
  roomName: (channelId) => `channel-${channelId}`,
  setPublisherMuted: async () => undefined,
  setFloor: async () => undefined,
  blockChanged: async () => undefined,
  disconnectUser: async () => undefined,
  closeRoom: async () => undefined,
};
