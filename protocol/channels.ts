import { z } from 'zod';
import { hasVisibleText, plainText } from './text.js';
import { messageResponseSchema } from './responses.js';
import { userIdSchema } from './users.js';
import { talkModeSchema } from './floor.js';

export const CHANNEL_NAME_MAX_LENGTH = 64;
export const CHANNEL_ROLES = ['admin', 'member'] as const;
export const channelRoleSchema = z.enum(CHANNEL_ROLES);
export type ChannelRole = z.infer<typeof channelRoleSchema>;

/** Channel ids are PostgreSQL `serial`s: positive and at most 2^31-1. Path params arrive as strings. */
export const channelIdSchema = z.coerce.number().int().positive().max(2_147_483_647);

export const channelSchema = z.object({
  id: z.number(),
  name: z.string(),
  createdBy: z.string(),
  memberCount: z.number(),
  /** "open" (everyone at once) or "walkie" (one talker at a time). */
  talkMode: talkModeSchema,
  maxTransmissionSeconds: z.number().int(),
  /** A walkie-talkie channel keeps its transmissions for replay (default on). */
  keepTransmissions: z.boolean(),
  /** An SOS channel: its members see SOS, and its alerts reach them all (decision 050). */
  sos: z.boolean(),
  /** How long an SOS opens the sender's microphone here, in seconds. */
  sosSeconds: z.number().int(),
});
export type Channel = z.infer<typeof channelSchema>;
export const channelsResponseSchema = z.array(channelSchema);

/**
 * Spec §5: trimmed before use, never empty — nor made only of what shows nothing (zero-width, bidi
 * and other format characters, whitespace); DESIGN §3: at most 64 characters.
 */
export const channelNameSchema = plainText('Channel name')
  .trim()
  .min(1, 'Channel name cannot be empty')
  .max(
    CHANNEL_NAME_MAX_LENGTH,
    `Channel name must be at most ${CHANNEL_NAME_MAX_LENGTH} characters`,
  )
  .refine(hasVisibleText, 'Channel name cannot be empty');

export const createChannelBodySchema = z.object({ name: channelNameSchema });
export type CreateChannelBody = z.infer<typeof createChannelBodySchema>;

/** `/api/channels/{id}` and `/api/channels/{id}/members` */
export const channelParamsSchema = z.object({ id: channelIdSchema });

/** `/api/channels/{id}/members/{memberId}[/mute|/poke]`: a member id is the member's user id. */
export const memberParamsSchema = z.object({ id: channelIdSchema, memberId: userIdSchema });

export const channelMemberSchema = z.object({
  /** The member's user id (DESIGN §3 "Member ids"); `userId` repeats it. */
  id: z.string(),
  userId: z.string(),
  name: z.string(),
  role: channelRoleSchema,
  isOnline: z.boolean(),
  isActiveInChannel: z.boolean(),
  isTalking: z.boolean(),
  isMutedInChannel: z.boolean(),
  email: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
});
export type ChannelMember = z.infer<typeof channelMemberSchema>;
export const channelMembersResponseSchema = z.array(channelMemberSchema);

/**
 * `POST /api/channels/{id}/members`: the spec sends `{userId}`. `{email}` is accepted instead so the
 * contact-picker invite gets the server's 404 for an unknown address (spec §8 "Not found").
 */
export const addMemberBodySchema = z.union([
  z.object({ userId: userIdSchema }).strict(),
  z.object({ email: z.string().trim().toLowerCase().pipe(z.email().max(320)) }).strict(),
]);
export type AddMemberBody = z.infer<typeof addMemberBodySchema>;

export const pokeResponseSchema = messageResponseSchema;
export type PokeResponse = z.infer<typeof pokeResponseSchema>;

/** `/api/muted-users/{channelId}` */
export const mutedUsersParamsSchema = z.object({ channelId: channelIdSchema });
export const mutedUsersResponseSchema = z.object({ mutedUsers: z.array(z.string()) });
export type MutedUsersResponse = z.infer<typeof mutedUsersResponseSchema>;

/**
 * `GET /api/channels/activity`: what is going on in each of the signed-in user's channels, for the
 * Channels menu: transmissions they missed ("2 missed") and how many others hear the channel now.
 */
export const channelActivitySchema = z.object({
  channelId: z.number().int().positive(),
  missed: z.number().int().nonnegative(),
  /** Other members who hear the channel now (the member list's Online and Speaking). */
  online: z.number().int().nonnegative(),
});
export type ChannelActivity = z.infer<typeof channelActivitySchema>;
export const channelActivityResponseSchema = z.array(channelActivitySchema);

/** Poke limit (DESIGN §3): one poke per (from, to) pair per this many milliseconds. */
export const POKE_INTERVAL_MS = 10_000;

/** Channels one member-tier user may join by themselves per day (decision 026); invites and admins are not counted. */
export const SELF_JOINS_PER_DAY = 20;
