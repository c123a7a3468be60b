import { describe, expect, it } from 'vitest';
import { API_PATHS, apiPath } from './api-paths.js';

describe('apiPath', () => {
  it('fills every parameter, URL-encoded', () => {
    expect(apiPath(API_PATHS.channelMemberMute, { id: 7, memberId: 'a/b c' })).toBe(
      '/api/channels/7/members/a%2Fb%20c/mute',
    );
    expect(apiPath(API_PATHS.usage, {})).toBe('/api/usage');
  });

  it('names every path under /api, each once', () => {
    const paths = Object.values(API_PATHS);
    expect(paths.every((p) => p.startsWith('/api/'))).toBe(true);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
