/**
 * The channel a user last had open, per user and browser, so a reload lands there again instead of
 * on "Please select a channel to start" (decision 016: the spec's "no automatic default" for admins
 * is about the first choice, not every reload).
 */
const key = (userId: string) => `chirp.lastChannel.${userId}`;

export function readLastChannel(
  userId: string,
  storage: Pick<Storage, 'getItem'> = localStorage,
): number | null {
  try {
    const value = storage.getItem(key(userId));
    if (!value || !/^\d+$/.test(value)) return null;
    const id = Number(value);
    return Number.isSafeInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

export function writeLastChannel(
  userId: string,
  channelId: number | null,
  storage: Pick<Storage, 'setItem' | 'removeItem'> = localStorage,
): void {
  try {
    if (channelId === null) storage.removeItem(key(userId));
    else storage.setItem(key(userId), String(channelId));
  } catch {
    // Storage disabled (private mode): nothing is remembered.
  }
}

/** Writes every change of the current channel down for `userId`; returns stop. */
export function rememberLastChannel(
  userId: string,
  channel: { get(): number | null; subscribe(listener: () => void): () => void },
  storage: Pick<Storage, 'setItem' | 'removeItem'> = localStorage,
): () => void {
  let last = channel.get();
  return channel.subscribe(() => {
    const now = channel.get();
    if (now === last) return;
    last = now;
    // Clearing happens when a channel goes away; the next reload then chooses afresh.
    writeLastChannel(userId, now, storage);
  });
}
