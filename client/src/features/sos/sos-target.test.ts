// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Channel } from '../../../../protocol/channels';
import { sosTarget } from './sos-target';

const channel = (id: number, name: string, sos: boolean): Channel => ({
  id,
  name,
  createdBy: 'olivia',
  memberCount: 3,
  talkMode: 'open',
  maxTransmissionSeconds: 60,
  keepTransmissions: true,
  sos,
  sosSeconds: 10,
});

describe('where an SOS goes', () => {
  const channels = [
    channel(1, 'Work', false),
    channel(2, 'Grandparents', true),
    channel(3, 'Family', true),
  ];
  it('the current channel when it is an SOS channel', () => {
    expect(sosTarget(channels, 2)?.name).toBe('Grandparents');
  });
  it('else the first SOS channel by name', () => {
    expect(sosTarget(channels, 1)?.name).toBe('Family');
    expect(sosTarget(channels, null)?.name).toBe('Family');
  });
  it('nowhere (no button) without an SOS channel', () => {
    expect(sosTarget([channel(1, 'Work', false)], 1)).toBeNull();
    expect(sosTarget(undefined, 1)).toBeNull();
  });
});
