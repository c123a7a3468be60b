import { DisconnectReason } from 'livekit-client';
import { describe, expect, it } from 'vitest';
import { disconnectReason } from './livekit-room';

describe('LiveKit disconnect reasons in the transport’s words', () => {
  it.each([
    [DisconnectReason.CLIENT_INITIATED, 'client'],
    [DisconnectReason.DUPLICATE_IDENTITY, 'replaced'],
    [DisconnectReason.PARTICIPANT_REMOVED, 'kicked'],
    [DisconnectReason.ROOM_DELETED, 'room_closed'],
    [DisconnectReason.JOIN_FAILURE, 'unauthorized'],
    [DisconnectReason.SIGNAL_CLOSE, 'connection_lost'],
    [undefined, 'connection_lost'],
  ] as const)('%s → %s', (reason, expected) => {
    expect(disconnectReason(reason)).toBe(expected);
  });
});
