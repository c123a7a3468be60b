import { describe, expect, it } from 'vitest';
import type { Channel } from '../../../../protocol/channels';
import { groupChannels } from './channel-groups';

const channel = (id: number, name: string, createdBy: string): Channel => ({
  id,
  name,
  createdBy,
  memberCount: 2,
  talkMode: 'open',
  maxTransmissionSeconds: 60,
  keepTransmissions: true,
  sos: false,
  sosSeconds: 10,
});

describe('groupChannels', () => {
  const family = channel(1, 'Family', 'me');
  const hiking = channel(2, 'Weekend hiking', 'me');
  const work = channel(3, 'Work', 'boss');
  const chess = channel(4, 'Chess club', 'boss');

  it('lists each channel once: mine by who made it, then every other under All Channels', () => {
    const groups = groupChannels([family, hiking, work], [family, hiking, work, chess], 'me');
    expect(groups.createdByYou.map((c) => c.name)).toEqual(['Family', 'Weekend hiking']);
    expect(groups.memberOf.map((c) => c.name)).toEqual(['Work']);
    expect(groups.others.map((c) => c.name)).toEqual(['Chess club']);
    const listed = [...groups.createdByYou, ...groups.memberOf, ...groups.others].map((c) => c.id);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('leaves All Channels empty for someone who sees only their own', () => {
    expect(groupChannels([work], [], 'me')).toEqual({
      createdByYou: [],
      memberOf: [work],
      others: [],
    });
  });
});
