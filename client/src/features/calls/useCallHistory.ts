import { API_PATHS } from '../../../../protocol/api-paths';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useSyncExternalStore } from 'react';
import { callHistoryResponseSchema } from '../../../../protocol/calls';
import { parsedQuery } from '../../lib/query-client';
import { useAuth } from '../auth/useAuth';
import {
  missedCallsSince,
  readListSeen,
  readSeenMarks,
  unseenMissedFrom,
  writeListSeen,
  writeSeenMark,
  type SeenMarks,
} from './missed-calls';

export const CALL_HISTORY_QUERY_KEY = [API_PATHS.calls] as const;

/** The signed-in user's recent calls (`GET /api/calls`), newest first; refreshed when a call ends. */
export function useCallHistory() {
  const { isAuthenticated } = useAuth();
  return useQuery({
    queryKey: CALL_HISTORY_QUERY_KEY,
    queryFn: parsedQuery(callHistoryResponseSchema),
    enabled: isAuthenticated,
  });
}

let seen: SeenMarks | null = null;
const seenListeners = new Set<() => void>();

function seenMarks(): SeenMarks {
  seen ??= readSeenMarks();
  return seen;
}

function subscribeSeen(listener: () => void): () => void {
  seenListeners.add(listener);
  return () => seenListeners.delete(listener);
}

/** Clears a contact's missed-call mark (they were seen, or called back). */
export function markMissedCallsSeen(userId: string): void {
  seen = writeSeenMark(userId, new Date());
  for (const listener of [...seenListeners]) listener();
}

/** User ids with a missed incoming call the user has not seen yet, for marks in Contacts. */
export function useMissedCalls(): ReadonlySet<string> {
  const { data } = useCallHistory();
  const marks = useSyncExternalStore(subscribeSeen, seenMarks, seenMarks);
  return useMemo(() => unseenMissedFrom(data ?? [], marks), [data, marks]);
}

// `undefined` until first read: null is a stored "never opened".
let listSeen: string | null | undefined;
const listSeenListeners = new Set<() => void>();

function listSeenAt(): string | null {
  if (listSeen === undefined) listSeen = readListSeen();
  return listSeen;
}

function subscribeListSeen(listener: () => void): () => void {
  listSeenListeners.add(listener);
  return () => listSeenListeners.delete(listener);
}

/** The Contacts list was opened: the missed calls in it are seen, so the button's count clears. */
export function markMissedCallListSeen(): void {
  listSeen = writeListSeen(new Date());
  for (const listener of [...listSeenListeners]) listener();
}

/** Missed calls since the Contacts list was last opened: the number on the Contacts button. */
export function useUnseenMissedCallCount(): number {
  const { data } = useCallHistory();
  const since = useSyncExternalStore(subscribeListSeen, listSeenAt, listSeenAt);
  return useMemo(() => missedCallsSince(data ?? [], since), [data, since]);
}
