// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  MICROPHONE_ERRORS,
  MUTED_BY_ADMIN_MESSAGE,
  microphoneErrorMessage,
} from './microphone-error';
import { VoiceTransportError } from './transport/voice-transport';

describe('microphoneErrorMessage', () => {
  it('says permission is denied in the spec words, only when it was denied', () => {
    expect(microphoneErrorMessage(new DOMException('Permission denied', 'NotAllowedError'))).toBe(
      'Microphone access denied - please allow microphone permissions',
    );
    expect(microphoneErrorMessage(new DOMException('x', 'SecurityError'))).toBe(
      MICROPHONE_ERRORS.denied,
    );
  });

  it('tells a missing microphone and a busy one apart from a refusal', () => {
    expect(
      microphoneErrorMessage(new DOMException('Requested device not found', 'NotFoundError')),
    ).toBe('No microphone found - please connect a microphone and try again');
    expect(
      microphoneErrorMessage(new DOMException('Could not start audio source', 'NotReadableError')),
    ).toBe(MICROPHONE_ERRORS.busy);
  });

  it('explains an admin mute and passes other errors through', () => {
    expect(microphoneErrorMessage(new VoiceTransportError('forbidden', 'x'))).toBe(
      MUTED_BY_ADMIN_MESSAGE,
    );
    expect(microphoneErrorMessage(new Error('No microphone track'))).toBe('No microphone track');
    expect(microphoneErrorMessage('weird')).toBe('Could not start the microphone');
  });
});
