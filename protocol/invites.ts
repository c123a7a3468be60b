import { z } from 'zod';
import { plainText } from './text.js';
import { channelIdSchema } from './channels.js';

/** Invite links are valid this long (DESIGN §3). */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Live links one member keeps per channel; minting another retires their oldest. */
export const MAX_LIVE_INVITES_PER_MEMBER = 10;
/** Links one person may mint per hour, over all channels. */
export const INVITES_PER_HOUR = 30;

/**
 * `POST /api/invite/generate {channelId}` mints a link (decision 027). The spec's
 * `GET /api/invite/generate?channelId={id}` still answers a request from our own pages, never a
 * navigation from elsewhere.
 */
export const generateInviteQuerySchema = z.object({ channelId: channelIdSchema });
export const generateInviteBodySchema = z.object({ channelId: channelIdSchema }).strict();
export type GenerateInviteBody = z.infer<typeof generateInviteBodySchema>;
export const inviteResponseSchema = z.object({ inviteUrl: z.string() });
export type InviteResponse = z.infer<typeof inviteResponseSchema>;

/** The query parameters an invite link carries on the main route. */
export const INVITE_URL_PARAMS = { channel: 'channel', token: 'invite' } as const;

/** `POST /api/invite/accept` */
export const acceptInviteBodySchema = z.object({ token: plainText('An invite token').trim().min(1).max(256) });
export type AcceptInviteBody = z.infer<typeof acceptInviteBodySchema>;
export const acceptInviteResponseSchema = z.object({ channelId: z.number() });
export type AcceptInviteResponse = z.infer<typeof acceptInviteResponseSchema>;

/**
 * `POST /api/invite/preview {token}` (public): what an invite link's holder may see before signing
 * in — the channel's name and who made the link, never an e-mail (decision 047).
 */
export const invitePreviewBodySchema = acceptInviteBodySchema;
export interface InvitePreview {
  channelName: string;
  /** The link's maker by name; "Someone" when they have none (their e-mail is never shown here). */
  inviterName: string;
}
/** 404 for a token that names no live invite (expired, revoked, or never made). */
export const INVALID_INVITE_MESSAGE = 'This invite link is invalid or has expired';

/** `GET /api/channels/{id}/invites`: the channel's live links, for its admin (tokens are never shown). */
export const channelInviteSchema = z.object({
  id: z.number().int().positive(),
  createdBy: z.object({ id: z.string(), name: z.string() }),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type ChannelInvite = z.infer<typeof channelInviteSchema>;
export const channelInvitesResponseSchema = z.array(channelInviteSchema);

/** `DELETE /api/channels/{id}/invites/{inviteId}`: revokes one link. */
export const channelInviteParamsSchema = z.object({
  id: channelIdSchema,
  inviteId: z.coerce.number().int().positive().max(2_147_483_647),
});

/** 403 when someone removed from the channel opens a link minted before their removal. */
export const REMOVED_BY_ADMIN_MESSAGE = 'You were removed from this channel. Ask its admin to add you again.';
