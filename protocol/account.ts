import { z } from 'zod';
import { hasVisibleText, plainText } from './text.js';
import { userSchema } from './user.js';

/** The signed-in user's own account (Settings, API_PATHS.account): change the password, delete it. */
export const MIN_PASSWORD_LENGTH = 8;

export const accountSchema = z.object({
  /** Signs in with e-mail and password at this server's built-in provider (so may change it here). */
  passwordSignIn: z.boolean(),
  /** Channels deleted with the account, for everyone in them (decision 020). */
  createdChannels: z.array(z.object({ id: z.number(), name: z.string(), memberCount: z.number() })),
});
export type Account = z.infer<typeof accountSchema>;

export const changePasswordBodySchema = z.object({
  currentPassword: z.string().min(1).max(200),
  newPassword: z.string().min(MIN_PASSWORD_LENGTH, `Passwords are at least ${MIN_PASSWORD_LENGTH} characters`).max(200),
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

/** Built-in accounts confirm with their password; accounts of an external provider send none. */
export const deleteAccountBodySchema = z.object({ password: z.string().min(1).max(200).optional() });
export type DeleteAccountBody = z.infer<typeof deleteAccountBodySchema>;

/** How long each part of a person's name may be (the member cards truncate longer ones anyway). */
export const NAME_PART_MAX_LENGTH = 64;

const namePart = (what: 'First name' | 'Last name') =>
  plainText(what)
    .trim()
    .min(1, `${what} cannot be empty`)
    .max(NAME_PART_MAX_LENGTH, `${what} must be at most ${NAME_PART_MAX_LENGTH} characters`)
    .refine(hasVisibleText, `${what} cannot be empty`);

/**
 * `PUT /api/account/name`: the signed-in user's own name. Both parts are required because the
 * spec's display name (§3) is "first and last name if both exist", else the tier title or e-mail.
 */
export const changeNameBodySchema = z.object({
  firstName: namePart('First name'),
  lastName: namePart('Last name'),
});
export type ChangeNameBody = z.infer<typeof changeNameBodySchema>;

/** The user after the change, as `GET /api/auth/user` shows it. */
export const changeNameResponseSchema = userSchema;

export const ACCOUNT_MESSAGES = {
  wrongPassword: 'Your current password is not correct',
  notPasswordAccount: 'Your password is managed by your sign-in provider',
  passwordChanged: 'Password changed',
  accountDeleted: 'Account deleted',
  /** 409: the server would be left without an owner (decision 012). */
  onlyOwner:
    "You are this server's only owner. Make someone else Super Admin first (npm run admin -- grant-superadmin <email>), then delete your account.",
} as const;
