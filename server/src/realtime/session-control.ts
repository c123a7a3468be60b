import { z } from 'zod';
import type { Bus } from './bus.js';

/**
 * Every instance listens here for the end of sign-in sessions and accounts, and for account
 * changes, that must reach open sockets and voice wherever they are. The admin command publishes
 * here too (over Redis), so a session it ends ends on the live servers as well.
 */
export const SOCKET_CONTROL_TOPIC = 'sockets:control';

const id = z.string().min(1).max(256);

export const sessionControlSchema = z.discriminatedUnion('kind', [
  /** One sign-in session ended: logout, sign-in again with the same cookie, expiry. */
  z.object({
    kind: z.literal('session_ended'),
    sessionId: id,
    /** Whose it was, when known: LiveKit participants are found by user. */
    userId: id.optional(),
  }),
  /**
   * Every sign-in session of a user ended (password change or reset, account deletion), except
   * `exceptSessionId` (the device that changed its own password stays signed in).
   */
  z.object({
    kind: z.literal('user_ended'),
    userId: id,
    exceptSessionId: id.optional(),
    /** `account_deleted`: the user is gone; closes say so. */
    reason: z.enum(['signed_out', 'account_deleted']),
    /** Channels deleted with the account (it created them): their voice rooms and floors close. */
    closedChannelIds: z.array(z.number().int().positive()).max(10_000).optional(),
    /** Channels the deleted account was a member of: a floor it holds there (an SOS too) ends. */
    leftChannelIds: z.array(z.number().int().positive()).max(10_000).optional(),
  }),
  /** The user's tier (or anything `/api/auth/user` shows) changed. */
  z.object({ kind: z.literal('account_changed'), userId: id }),
]);
export type SessionControl = z.infer<typeof sessionControlSchema>;
/** The controls that end sessions (everything but `account_changed`). */
export type SessionEnd = Extract<SessionControl, { kind: 'session_ended' | 'user_ended' }>;

/** Publishes a control to every instance (the in-process bus, or Redis). */
export function publishSessionControl(bus: Bus, control: SessionControl): Promise<void> {
  return bus.publish(SOCKET_CONTROL_TOPIC, sessionControlSchema.parse(control));
}
