import type { ChannelMember } from '../../../../protocol/channels';

/**
 * Spec §3 "Voice channel member update": the member replaces the one with the same id, else is
 * appended. Returns the same array when nothing changed so subscribers do not re-render.
 */
export function upsertMember(
  members: readonly ChannelMember[],
  member: ChannelMember,
): ChannelMember[] {
  const index = members.findIndex((existing) => existing.id === member.id);
  if (index === -1) return [...members, member];
  const existing = members[index];
  if (existing && sameMember(existing, member)) return members as ChannelMember[];
  return members.map((item, i) => (i === index ? member : item));
}

function sameMember(a: ChannelMember, b: ChannelMember): boolean {
  return (Object.keys(b) as (keyof ChannelMember)[]).every((key) => a[key] === b[key]);
}
