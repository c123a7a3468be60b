import type { Channel } from '../../../../protocol/channels';

export type SosTarget = Pick<Channel, 'id' | 'name' | 'sosSeconds'>;

/**
 * Where an SOS goes (decision 050): the current channel when it is an SOS channel, else the user's
 * first SOS channel by name; null when they belong to none (no SOS button).
 */
export function sosTarget(
  channels: readonly Channel[] | undefined,
  currentChannelId: number | null,
): SosTarget | null {
  const sos = (channels ?? []).filter((channel) => channel.sos);
  const current = sos.find((channel) => channel.id === currentChannelId);
  if (current) return current;
  return [...sos].sort((a, b) => a.name.localeCompare(b.name))[0] ?? null;
}
