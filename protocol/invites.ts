import { z } from 'zod';
import { plainText } from './text.js';
import { channelIdSchema } from './channels.js';

/** Invite links are valid this long (DESIGN §3). */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** `GET /api/invite/generate?channelId={id}` */
export const generateInviteQuerySchema = z.object({ channelId: channelIdSchema });
export const inviteResponseSchema = z.object({ inviteUrl: z.string() });
export type InviteResponse = z.infer<typeof inviteResponseSchema>;

/** The query parameters an invite link carries on the main route. */
export const INVITE_URL_PARAMS = { channel: 'channel', token: 'invite' } as const;

/** `POST /api/invite/accept` */
export const acceptInviteBodySchema = z.object({ token: plainText('An invite token').trim().min(1).max(256) });
export type AcceptInviteBody = z.infer<typeof acceptInviteBodySchema>;
export const acceptInviteResponseSchema = z.object({ channelId: z.number() });
export type AcceptInviteResponse = z.infer<typeof acceptInviteResponseSchema>;
