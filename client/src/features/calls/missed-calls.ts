import type { CallHistoryEntry } from '../../../../protocol/calls';

/** When the user last looked at (or called back) each contact: local to the device, like a badge. */
export type SeenMarks = Readonly<Record<string, string>>;

const STORAGE_KEY = 'chirp.missedCallsSeen';

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
