import { describe, expect, it } from 'vitest';
import type { CallHistoryEntry } from '../../../../protocol/calls';
import {
  missedCallsSince,
  missedCallsText,
  readListSeen,
  readSeenMarks,
  unseenMissedFrom,
  writeListSeen,
  writeSeenMark,
} from './missed-calls';

const entry = (
  contactId: string,
  startedAt: string,
  outcome: CallHistoryEntry['outcome'],
  direction: CallHistoryEntry['direction'] = 'incoming',
): CallHistoryEntry => ({
  callId: `${contactId}-${startedAt}`,
  direction,
  contactId,
  contactName: contactId,
  contactProfileImageUrl: null,
  outcome,
  startedAt,
  answeredAt: null,
  endedAt: null,
  durationSeconds: 0,
});

describe('unseenMissedFrom', () => {
  const history = [
    entry('ann', '2026-01-02T10:00:00Z', 'missed'),
    entry('bob', '2026-01-02T09:00:00Z', 'answered'),
    entry('cem', '2026-01-02T08:00:00Z', 'missed', 'outgoing'),
    entry('dan', '2026-01-01T08:00:00Z', 'missed'),
  ];

  it('marks contacts whose incoming call was missed and not seen since', () => {
    expect(unseenMissedFrom(history, {})).toEqual(new Set(['ann', 'dan']));
    expect(
      unseenMissedFrom(history, { dan: '2026-01-01T09:00:00Z', ann: '2026-01-02T09:59:00Z' }),
    ).toEqual(new Set(['ann']));
  });
});

describe('missedCallsSince', () => {
  const history = [
    entry('ann', '2026-01-02T10:00:00Z', 'missed'),
    entry('ann', '2026-01-02T09:30:00Z', 'missed'),
    entry('bob', '2026-01-02T09:00:00Z', 'answered'),
    entry('cem', '2026-01-02T08:00:00Z', 'missed', 'outgoing'),
    entry('dan', '2026-01-01T08:00:00Z', 'cancelled'),
  ];

  it('counts every incoming missed call after the list was last opened', () => {
    expect(missedCallsSince(history, null)).toBe(2);
    expect(missedCallsSince(history, '2026-01-02T09:45:00Z')).toBe(1);
    expect(missedCallsSince(history, '2026-01-02T10:00:00Z')).toBe(0);
    expect(missedCallsText(1)).toBe('1 missed call');
    expect(missedCallsText(3)).toBe('3 missed calls');
  });

  it('keeps when the list was opened, and ignores garbage', () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
    };
    expect(readListSeen(storage)).toBeNull();
    writeListSeen(new Date('2026-01-02T00:00:00Z'), storage);
    expect(readListSeen(storage)).toBe('2026-01-02T00:00:00.000Z');
    data.set('chirp.missedCallListSeen', 'not a date');
    expect(readListSeen(storage)).toBeNull();
  });
});

describe('seen marks storage', () => {
  it('round-trips and survives garbage', () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
    };
    expect(readSeenMarks(storage)).toEqual({});
    writeSeenMark('ann', new Date('2026-01-02T00:00:00Z'), storage);
    expect(readSeenMarks(storage)).toEqual({ ann: '2026-01-02T00:00:00.000Z' });
    data.set('chirp.missedCallsSeen', '[1,2]');
    expect(readSeenMarks(storage)).toEqual({});
    data.set('chirp.missedCallsSeen', '{bad');
    expect(readSeenMarks(storage)).toEqual({});
  });
});
