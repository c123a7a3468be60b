import type { CallHistoryEntry } from '../../../../protocol/calls';

/** When the user last looked at (or called back) each contact: local to the device, like a badge. */
export type SeenMarks = Readonly<Record<string, string>>;

const STORAGE_KEY = 'chirp.missedCallsSeen';
/** When the Contacts list was last opened: the top bar's count is of missed calls since then. */
const LIST_SEEN_KEY = 'chirp.missedCallListSeen';

/** Contacts with a missed incoming call newer than the last time the user saw their mark. */
export function unseenMissedFrom(
  history: readonly CallHistoryEntry[],
  seen: SeenMarks,
): Set<string> {
  const result = new Set<string>();
  for (const entry of history) {
    if (entry.direction !== 'incoming' || entry.outcome !== 'missed') continue;
    const seenAt = seen[entry.contactId];
    if (seenAt === undefined || Date.parse(entry.startedAt) > Date.parse(seenAt))
      result.add(entry.contactId);
  }
  return result;
}

/**
 * How many incoming calls were missed after `since` (an ISO time, or null for never), each one
 * counted: the number on the Contacts button until the list is opened.
 */
export function missedCallsSince(
  history: readonly CallHistoryEntry[],
  since: string | null,
): number {
  const after = since === null ? Number.NEGATIVE_INFINITY : Date.parse(since);
  return history.filter(
    (entry) =>
      entry.direction === 'incoming' &&
      entry.outcome === 'missed' &&
      Date.parse(entry.startedAt) > after,
  ).length;
}

export const missedCallsText = (count: number) =>
  count === 1 ? '1 missed call' : `${count} missed calls`;

export function readListSeen(storage: Pick<Storage, 'getItem'> = localStorage): string | null {
  try {
    const value = storage.getItem(LIST_SEEN_KEY);
    return value !== null && !Number.isNaN(Date.parse(value)) ? value : null;
  } catch {
    return null;
  }
}

export function writeListSeen(at: Date, storage: Pick<Storage, 'setItem'> = localStorage): string {
  const value = at.toISOString();
  try {
    storage.setItem(LIST_SEEN_KEY, value);
  } catch {
    // Storage full or disabled: seen for this page only.
  }
  return value;
}

export function readSeenMarks(storage: Pick<Storage, 'getItem'> = localStorage): SeenMarks {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(STORAGE_KEY) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter(
        (pair): pair is [string, string] => typeof pair[1] === 'string',
      ),
    );
  } catch {
    return {};
  }
}

export function writeSeenMark(
  userId: string,
  at: Date,
  storage: Pick<Storage, 'getItem' | 'setItem'> = localStorage,
): SeenMarks {
  const next = { ...readSeenMarks(storage), [userId]: at.toISOString() };
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Storage full or disabled: the mark lasts for this page only.
  }
  return next;
}
