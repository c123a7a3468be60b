import type { Usage } from '../../../../protocol/usage';

/**
 * Spec §4 "Other": pay-as-you-go is turned on automatically once, when the warning level reaches
 * high and it is off. "Once" is remembered per user in localStorage, so a user who turns it off
 * again is not overruled on the next refetch.
 */
export const autoPayAsYouGoKey = (userId: string) => `chirp:payAsYouGoAutoEnabled:${userId}`;

export function shouldAutoEnable(usage: Usage, alreadyDone: boolean): boolean {
  return usage.warningLevel === 'high' && !usage.payAsYouGoEnabled && !alreadyDone;
}

/** Storage may be unavailable (private mode, blocked cookies): then treat it as not done. */
export function wasAutoEnabled(storage: Storage | undefined, userId: string): boolean {
  try {
    return storage?.getItem(autoPayAsYouGoKey(userId)) === 'true';
  } catch {
    return false;
  }
}

export function markAutoEnabled(storage: Storage | undefined, userId: string): void {
  try {
    storage?.setItem(autoPayAsYouGoKey(userId), 'true');
  } catch {
    // Without storage it may happen again next visit; the server state still says it is on.
  }
}
