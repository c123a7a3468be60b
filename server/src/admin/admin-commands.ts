import { randomBytes } from 'node:crypto';
import { asc, eq, or, sql } from 'drizzle-orm';
import { assignableTierSchema, type SubscriptionTier } from '../../../protocol/user.js';
import { localAccountOf, setLocalPassword } from '../auth/provider/account-maintenance.js';
import { announceDeletedUser } from '../account/delete-account.js';
import type { Database } from '../db/database.js';
import { users } from '../db/schema.js';
import { isOnlyOwner, setupCodeIfOwnerless } from '../ownership/last-owner.js';
import type { ChannelEvent } from '../realtime/channel-events.js';
import type { SessionControl } from '../realtime/session-control.js';
import { channelsGoingWith, deleteUserAndData } from '../users/delete-user.js';

/** A mistake in the operator's command: printed as is, exit code 2. */
export class UsageError extends Error {}

export interface AdminIo {
  print(line: string): void;
}

/**
 * The running servers, reached over their bus (Redis): what the command changed reaches open
 * sockets and voice there as if it had been done through the app.
 */
export interface LiveServers {
  control(control: SessionControl): Promise<void>;
  channelEvent(event: ChannelEvent): Promise<void>;
}

export interface AdminOptions {
  superadminEmails?: string[];
  /** Absent when the servers cannot be reached (no REDIS_URL). */
  live?: LiveServers;
  /** Printed after a command that ended sessions when `live` is absent. */
  notLiveNote?: string;
}

type UserRow = typeof users.$inferSelect;

export const ADMIN_USAGE = `Usage: npm run admin -- <command>

  users                                   list every user (id, e-mail, name, tier, sign-in)
  set-tier <user> <free|member|admin>     change a user's tier (not a superadmin's)
  grant-superadmin <user>                 make a user superadmin (owner)
  revoke-superadmin <user> [tier]         take superadmin away; the user becomes admin, or [tier]
  reset-password <email> [--password P]   new password for a built-in account (generated unless given);
                                          signs the account out everywhere
  delete-user <user> [--yes]              delete a user and their data (without --yes: show what goes)

<user> is a user id or an e-mail address. Runs on the database the server is configured with
(DATABASE_URL, or the embedded database in DATA_DIR while the server is stopped). With REDIS_URL,
running servers end the sessions, sockets and voice it ends within a second.`;

const nameOf = (u: UserRow) => [u.firstName, u.lastName].filter(Boolean).join(' ') || '-';

async function findUser(db: Database, ref: string | undefined): Promise<UserRow> {
  if (!ref) throw new UsageError('Name the user by id or e-mail.');
  const matches = await db
    .select()
    .from(users)
    .where(or(eq(users.id, ref), eq(users.email, ref.trim().toLowerCase())))
    .orderBy(asc(users.createdAt));
  if (matches.length === 0) throw new UsageError(`No user ${ref}.`);
  if (matches.length > 1) {
    const ids = matches.map((u) => `${u.id} (${u.issuer})`).join(', ');
    throw new UsageError(`${ref} names several users (one per sign-in provider): use an id: ${ids}`);
  }
  return matches[0]!;
}

async function setTier(db: Database, user: UserRow, tier: SubscriptionTier): Promise<void> {
  await db.update(users).set({ subscriptionTier: tier, updatedAt: new Date() }).where(eq(users.id, user.id));
}

const describe = (u: UserRow) => `${u.email ?? u.id} (${nameOf(u)})`;

async function listUsers(db: Database, io: AdminIo): Promise<void> {
  const rows = await db
    .select({ user: users, builtIn: sql<boolean>`exists (select 1 from local_accounts where local_accounts.id = ${users.subject})` })
    .from(users)
    .orderBy(asc(users.createdAt));
  const table = [
    ['ID', 'EMAIL', 'NAME', 'TIER', 'SIGN-IN', 'CREATED'],
    ...rows.map(({ user, builtIn }) => [
      user.id,
      user.email ?? '-',
      nameOf(user),
      user.subscriptionTier,
      builtIn ? 'built-in' : new URL(user.issuer).host,
      user.createdAt.toISOString().slice(0, 10),
    ]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  for (const row of table) io.print(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
  io.print(`${rows.length} user(s)`);
}

/** The server keeps an owner: its only superadmin is neither deleted nor demoted (decision 012). */
async function refuseOnlyOwner(db: Database, user: UserRow): Promise<void> {
  if (!(await isOnlyOwner(db, user.id))) return;
  throw new UsageError(
    `${describe(user)} is the only superadmin: the server would have no owner. Make someone else superadmin first (grant-superadmin <user>).`,
  );
}

/** Should two owners have gone at once after all: a new setup code now, not at the next start. */
async function printCodeIfOwnerless(db: Database, io: AdminIo): Promise<void> {
  const code = await setupCodeIfOwnerless(db);
  if (code) io.print(`The server has no owner now. Owner setup code: ${code} — sign in, open Settings and enter it under "Claim this server".`);
}

/** Runs one admin command; returns the process exit code. */
export async function runAdminCommand(
  db: Database,
  argv: string[],
  io: AdminIo,
  options: AdminOptions = {},
): Promise<number> {
  const { live } = options;
  const sessionsEnded = () => {
    if (!live && options.notLiveNote) io.print(options.notLiveNote);
  };
  const accountChanged = (userId: string) => live?.control({ kind: 'account_changed', userId });
  const [command, ...args] = argv;
  const flags = new Set(args.filter((a) => a.startsWith('--')));
  const positional = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--password');
  switch (command) {
    case 'users':
      await listUsers(db, io);
      return 0;

    case 'set-tier': {
      const user = await findUser(db, positional[0]);
      const tier = assignableTierSchema.safeParse(positional[1]);
      if (!tier.success) throw new UsageError('The tier is one of free, member, admin (superadmin: grant-superadmin).');
      if (user.subscriptionTier === 'superadmin') {
        throw new UsageError(`${describe(user)} is superadmin: use revoke-superadmin <user> ${tier.data}.`);
      }
      await setTier(db, user, tier.data);
      await accountChanged(user.id);
      io.print(`${describe(user)}: ${user.subscriptionTier} -> ${tier.data}`);
      return 0;
    }

    case 'grant-superadmin': {
      const user = await findUser(db, positional[0]);
      await setTier(db, user, 'superadmin');
      await accountChanged(user.id);
      io.print(`${describe(user)} is now superadmin (was ${user.subscriptionTier}).`);
      return 0;
    }

    case 'revoke-superadmin': {
      const user = await findUser(db, positional[0]);
      const tier = assignableTierSchema.safeParse(positional[1] ?? 'admin');
      if (!tier.success) throw new UsageError('The new tier is one of free, member, admin.');
      if (user.subscriptionTier !== 'superadmin') throw new UsageError(`${describe(user)} is not superadmin.`);
      await refuseOnlyOwner(db, user);
      await setTier(db, user, tier.data);
      await accountChanged(user.id);
      io.print(`${describe(user)} is now ${tier.data}.`);
      await printCodeIfOwnerless(db, io);
      if (user.email && options.superadminEmails?.includes(user.email)) {
        io.print(`Note: ${user.email} is in SUPERADMIN_EMAILS and becomes superadmin again at the next sign-in; remove it there.`);
      }
      return 0;
    }

    case 'reset-password': {
      const user = await findUser(db, positional[0]);
      const account = await localAccountOf(db, user);
      if (!account) throw new UsageError(`${describe(user)} signs in with ${user.issuer}: reset the password there.`);
      const given = args[args.indexOf('--password') + 1];
      const password = flags.has('--password') && given ? given : randomBytes(12).toString('base64url');
      await setLocalPassword(db, account, user.id, password);
      await live?.control({ kind: 'user_ended', userId: user.id, reason: 'signed_out' });
      io.print(`New password for ${account.email}: ${password}`);
      io.print('Every session of this account has ended; it signs in again with the new password.');
      sessionsEnded();
      return 0;
    }

    case 'delete-user': {
      const user = await findUser(db, positional[0]);
      await refuseOnlyOwner(db, user);
      if (!flags.has('--yes')) {
        const created = await channelsGoingWith(db, user.id);
        io.print(`This deletes ${describe(user)}, tier ${user.subscriptionTier}, with their sessions, memberships,`);
        io.print('contacts, blocks, usage, calls and invites' + (created.length ? ', and the channels they created:' : '.'));
        for (const c of created) io.print(`  #${c.id} ${c.name} (${c.members} member(s))`);
        io.print(`Run again with --yes to delete: npm run admin -- delete-user ${user.id} --yes`);
        return 1;
      }
      const deleted = await deleteUserAndData(db, user.id);
      if (!deleted) throw new UsageError(`No user ${user.id}.`);
      if (live) {
        await announceDeletedUser(deleted, {
          endUser: (userId, end) => live.control({ kind: 'user_ended', userId, ...end }),
          channelEvent: (event) => live.channelEvent(event),
        });
      }
      io.print(
        `Deleted ${describe(user)}` +
          (deleted.createdChannels.length ? ` and ${deleted.createdChannels.length} channel(s) they created` : '') +
          (deleted.localAccountDeleted ? '; their built-in sign-in account is gone too.' : '.'),
      );
      sessionsEnded();
      if (user.subscriptionTier === 'superadmin') await printCodeIfOwnerless(db, io);
      return 0;
    }

    case undefined:
    case 'help':
    case '--help':
      io.print(ADMIN_USAGE);
      return command === undefined ? 2 : 0;

    default:
      throw new UsageError(`Unknown command ${command}.\n\n${ADMIN_USAGE}`);
  }
}
