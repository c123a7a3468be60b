import { VOICE_ERRORS } from './room-connection/messages';
import { VoiceTransportError } from './transport/voice-transport';

/** Said when an admin-muted user's microphone is refused (spec §6: publishing fails with 403). */
export const MUTED_BY_ADMIN_MESSAGE = 'An admin has muted you in this channel';

/** The browser's names for a refused microphone permission (older engines used the last one). */
const DENIED_NAMES = new Set(['NotAllowedError', 'SecurityError', 'PermissionDeniedError']);

/** The text of the "Microphone Error" toast for a failure to turn the microphone on. */
export function microphoneErrorMessage(error: unknown): string {
  if (error instanceof VoiceTransportError && error.code === 'forbidden')
    return MUTED_BY_ADMIN_MESSAGE;
  // getUserMedia rejects with a DOMException, which is not an Error in every engine.
  const name =
    typeof error === 'object' && error !== null && 'name' in error ? error.name : undefined;
  if (typeof name === 'string' && DENIED_NAMES.has(name)) return VOICE_ERRORS.microphoneDenied;
  return error instanceof Error && error.message ? error.message : 'Could not start the microphone';
}
