import { describe, expect, it } from 'vitest';
import { MUTED_BY_ADMIN_MESSAGE, microphoneErrorMessage } from './microphone-error';
import { VoiceTransportError } from './transport/voice-transport';

describe('microphoneErrorMessage', () => {
  it('says permission is denied in the spec words', () => {
    expect(microphoneErrorMessage(new DOMException('Permission denied', 'NotAllowedError'))).toBe(
      'Microphone access denied - please allow microphone permissions',
    );
  });

  it('explains an admin mute and passes other errors through', () => {
    expect(microphoneErrorMessage(new VoiceTransportError('forbidden', 'x'))).toBe(
      MUTED_BY_ADMIN_MESSAGE,
    );
    expect(microphoneErrorMessage(new Error('No microphone track'))).toBe('No microphone track');
    expect(microphoneErrorMessage('weird')).toBe('Could not start the microphone');
  });
});
