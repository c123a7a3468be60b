import { HttpError } from '../http/errors.js';

/**
 * What channel changes ask of the voice server: the app's voice provider (LiveKit's RoomService or
 * the built-in SFU). Each rejects when the voice server could not do it; a user or room that is
 * simply not connected is not an error.
 */
export interface ChannelVoice {
  /** Admin mute: stop carrying the user's audio in the channel at once (or carry it again). */
  setPublisherMuted(channelId: number, userId: string, muted: boolean): Promise<void>;
  /** The user may no longer be in the channel (removed, or left). */
  disconnectUser(channelId: number, userId: string): Promise<void>;
  /** The channel is gone. */
  closeRoom(channelId: number): Promise<void>;
}

/**
 * The voice server (LiveKit's RoomService, or the built-in SFU) could not carry out an admin's change.
 * The change is refused as a whole (the caller's transaction rolls back), so what the admin sees,
 * what the database says and what the listeners hear never disagree. 502: an upstream failed.
 */
export class VoiceServerError extends HttpError {
  constructor(message: string, cause: unknown) {
    super(502, message);
    this.cause = cause;
  }
}

/** Runs an effect on the voice server; a failure becomes a `VoiceServerError` saying what was not done. */
export async function onVoiceServer(action: string, effect: () => Promise<void>): Promise<void> {
  try {
    await effect();
  } catch (error) {
    throw new VoiceServerError(
      `Could not ${action}: the voice server did not respond - please try again`,
      error,
    );
  }
}
