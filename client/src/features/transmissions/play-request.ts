/**
 * A transmission someone asked to hear by tapping its notification: the channel's Transmissions
 * list opens (and stays open until closed) and its player plays it once.
 */
export type PlayRequest = { channelId: number; transmissionId: string };

let request: (PlayRequest & { played: boolean }) | null = null;
const listeners = new Set<() => void>();
const changed = () => {
  for (const listener of [...listeners]) listener();
};

export function requestPlay(next: PlayRequest): void {
  request = { ...next, played: false };
  changed();
}

/** The request the list is open for, if any. */
export function pendingPlay(): PlayRequest | null {
  return request;
}

/** The transmission to play now in `channelId`'s list: given once. */
export function playNow(channelId: number): PlayRequest | null {
  if (request?.channelId !== channelId || request.played) return null;
  request = { ...request, played: true };
  return request;
}

/** The list of `channelId` closed: the request is over. */
export function endPlay(channelId: number): void {
  if (request?.channelId !== channelId) return;
  request = null;
  changed();
}

export function subscribePlayRequests(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
