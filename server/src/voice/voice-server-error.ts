import { HttpError } from '../http/errors.js';

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
