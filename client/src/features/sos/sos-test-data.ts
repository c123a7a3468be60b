import type { SosAlert } from '../../../../protocol/sos';

/** An alert as the server sends it, for the SOS tests. */
export function sosAlert(patch: Partial<SosAlert> = {}): SosAlert {
  return {
    id: '0b6c3f0e-1d1e-4a43-9a3e-6d2f0c1b2a3d',
    channelId: 7,
    channelName: 'Family',
    sender: { id: 'ava', name: 'Ava' },
    raisedAt: '2026-11-27T12:00:00.000Z',
    talkUntil: Date.parse('2026-11-27T12:00:10.000Z'),
    location: null,
    acks: [],
    resolvedAt: null,
    resolvedBy: null,
    transmissions: [],
    ...patch,
  };
}
