import { VOICE_ERRORS } from './room-connection/messages';
import { VoiceTransportError } from './transport/voice-transport';

/** Said when an admin-muted user's microphone is refused (spec §6: publishing fails with 403). */
export const MUTED_BY_ADMIN_MESSAGE = 'An admin has muted you in this channel';

/** What went wrong, by the browser's error name, in words a user can act on. */
export const MICROPHONE_ERRORS = {
  /** Spec §5, word for word; the one spelling of it in the client. */
  denied: VOICE_ERRORS.microphoneDenied,
  notFound: 'No microphone found - please connect a microphone and try again',
  busy: 'Microphone is in use by another app or not working - please close other apps using it',
  unknown: 'Could not start the microphone',
} as const;

/** getUserMedia's error names (older engines used the Permission…/Devices… spellings). */
const BY_NAME: Record<string, string> = {
  NotAllowedError: MICROPHONE_ERRORS.denied,
  SecurityError: MICROPHONE_ERRORS.denied,
  PermissionDeniedError: MICROPHONE_ERRORS.denied,
  NotFoundError: MICROPHONE_ERRORS.notFound,
  DevicesNotFoundError: MICROPHONE_ERRORS.notFound,
  OverconstrainedError: MICROPHONE_ERRORS.notFound,
  NotReadableError: MICROPHONE_ERRORS.busy,
  TrackStartError: MICROPHONE_ERRORS.busy,
  AbortError: MICROPHONE_ERRORS.busy,
};

/** The text of the "Microphone Error" toast for a failure to turn a microphone on (channel or call). */
export function microphoneErrorMessage(error: unknown): string {
  if (error instanceof VoiceTransportError && error.code === 'forbidden')
    return MUTED_BY_ADMIN_MESSAGE;
  // getUserMedia rejects with a DOMException, which is not an Error in every engine.
  const name =
    typeof error === 'object' && error !== null && 'name' in error ? error.name : undefined;
  const known = typeof name === 'string' ? BY_NAME[name] : undefined;
  if (known) return known;
  return error instanceof Error && error.message ? error.message : MICROPHONE_ERRORS.unknown;
}
