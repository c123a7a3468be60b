import { createHash, randomBytes } from 'node:crypto';
import { INVITE_URL_PARAMS } from '../../../protocol/invites.js';

/** 32 random bytes: unguessable, and short enough for a link (43 characters of base64url). */
export function newInviteToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only the hash is stored, so a database leak reveals no usable link. */
export function hashInviteToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** `<origin>/?channel=<id>&invite=<token>` (DESIGN §3 "Invites"). */
export function inviteUrl(publicUrl: URL, channelId: number, token: string): string {
  const url = new URL('/', publicUrl.origin);
  url.searchParams.set(INVITE_URL_PARAMS.channel, String(channelId));
  url.searchParams.set(INVITE_URL_PARAMS.token, token);
  return url.href;
}
