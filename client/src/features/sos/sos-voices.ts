import type { SosAlert } from '../../../../protocol/sos';

/**
 * Whose voice is an SOS in the channel the user hears (decision 050): the floor holder while the
 * server marks the floor `sos`, and the sender of an alert there whose talk time has not run out.
 * Returns the ids and when the answer next changes by itself (the earliest talk time still to end).
 */
export function sosVoices(
  channelId: number | null,
  sosHolders: ReadonlyMap<number, string>,
  alerts: readonly SosAlert[],
  now: number,
): { userIds: Set<string>; nextChangeAt: number | null } {
  const userIds = new Set<string>();
  let nextChangeAt: number | null = null;
  if (channelId === null) return { userIds, nextChangeAt };
  const holder = sosHolders.get(channelId);
  if (holder !== undefined) userIds.add(holder);
  for (const alert of alerts) {
    if (alert.channelId !== channelId || alert.talkUntil <= now) continue;
    userIds.add(alert.sender.id);
    nextChangeAt =
      nextChangeAt === null ? alert.talkUntil : Math.min(nextChangeAt, alert.talkUntil);
  }
  return { userIds, nextChangeAt };
}
