import { z } from 'zod';
import { plainText } from './text.js';

/** `GET /api/setup`: whether the server has an owner (a superadmin) yet. */
export const setupStatusResponseSchema = z.object({ ownerClaimed: z.boolean() });
export type SetupStatusResponse = z.infer<typeof setupStatusResponseSchema>;

/** `POST /api/setup/claim {code}`: the one-time owner setup code from the server's log or data folder. */
export const claimOwnershipBodySchema = z.object({ code: plainText('The setup code').trim().min(1).max(64) });
export type ClaimOwnershipBody = z.infer<typeof claimOwnershipBodySchema>;

/** What the claim card shows for a wrong code (400). */
export const WRONG_SETUP_CODE_MESSAGE = 'That setup code is not right';
/** 409: someone already owns this server. */
export const OWNER_ALREADY_CLAIMED_MESSAGE = 'This server already has an owner';
