import { describe, expect, it } from 'vitest';
import { RecentSessionEnds } from './recent-session-ends.js';

describe('recent session ends', () => {
  it('covers a connection whose session (or user, but the kept session) ended after the mark', () => {
    const ends = new RecentSessionEnds();
    const mark = ends.mark();
    ends.remember({ sessionId: 's1' });
    ends.remember({ userId: 'sam', except: 'kept' });
    expect(ends.endedSince(mark, { userId: 'ann', sessionId: 's1' })).toBe(true);
    expect(ends.endedSince(mark, { userId: 'sam', sessionId: 'phone' })).toBe(true);
    expect(ends.endedSince(mark, { userId: 'sam', sessionId: 'kept' })).toBe(false);
    expect(ends.endedSince(mark, { userId: 'kim', sessionId: 's2' })).toBe(false);
  });

  it('does not hold an end against a connection whose session was read after it', () => {
    const ends = new RecentSessionEnds();
    ends.remember({ userId: 'sam' });
    // Sam signed in again: the new session's upgrade took its mark after the end was heard.
    const mark = ends.mark();
    expect(ends.endedSince(mark, { userId: 'sam', sessionId: 'new' })).toBe(false);
    ends.remember({ userId: 'sam' });
    expect(ends.endedSince(mark, { userId: 'sam', sessionId: 'new' })).toBe(true);
  });

  it('keeps only the latest thousand ends', () => {
    const ends = new RecentSessionEnds();
    const mark = ends.mark();
    ends.remember({ sessionId: 'old' });
    for (let i = 0; i < 1000; i++) ends.remember({ sessionId: `s${i}` });
    expect(ends.endedSince(mark, { userId: 'u', sessionId: 'old' })).toBe(false);
    expect(ends.endedSince(mark, { userId: 'u', sessionId: 's999' })).toBe(true);
  });
});
