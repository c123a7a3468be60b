// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { voiceBadge } from './voice-badge';

const online = { online: true, idle: false, callActive: false };

describe('voiceBadge', () => {
  it('says Voice Ready when connected and Connecting while trying or waiting to retry', () => {
    expect(voiceBadge(online, 'connected')).toBe('ready');
    expect(voiceBadge(online, 'fetchingToken')).toBe('connecting');
    expect(voiceBadge(online, 'waitingRetry')).toBe('connecting');
  });

  it('stops saying Connecting once the room gave up', () => {
    expect(voiceBadge(online, 'stopped')).toBe('unavailable');
  });

  it('is silent offline, while idle (the idle badge speaks) and during a call', () => {
    expect(voiceBadge({ ...online, online: false }, 'idle')).toBeNull();
    expect(voiceBadge({ ...online, idle: true }, 'idle')).toBeNull();
    expect(voiceBadge({ ...online, callActive: true }, 'idle')).toBeNull();
  });
});
