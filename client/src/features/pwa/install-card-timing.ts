/** Spec §2/§9: the card appears 30 s after the browser offers installation; a dismissal lasts 24 h. */
export const INSTALL_CARD_DELAY_MS = 30_000;
export const INSTALL_DISMISS_MS = 24 * 60 * 60 * 1000;
export const INSTALL_DISMISSED_KEY = 'chirp.installCardDismissedAt';

export function installCardAllowed(options: { installed: boolean; dismissedAt: number | null; now: number }): boolean {
  if (options.installed) return false;
  if (options.dismissedAt === null || Number.isNaN(options.dismissedAt)) return true;
  return options.now - options.dismissedAt >= INSTALL_DISMISS_MS;
}
