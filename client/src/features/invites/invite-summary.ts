import { errorStatus } from '../../lib/query-client';

export type InviteOutcome = 'invited' | 'already' | 'notFound';

export type InviteSummary = { invited: number; alreadyMembers: number; notFound: number };

/** Thrown to stop the whole invite run (spec §8: status 500 or above aborts). */
export class InviteAbortedError extends Error {
  constructor() {
    super('Server error while adding member');
    this.name = 'InviteAbortedError';
  }
}

/**
 * Spec §8: how one failed add counts. 409, or a message saying "already", is an existing member;
 * 404 is an unknown address; 500 and above aborts the run; anything else fails the invitation.
 */
export function classifyInviteError(error: unknown): InviteOutcome {
  const status = errorStatus(error);
  if (status !== undefined && status >= 500) throw new InviteAbortedError();
  const message = error instanceof Error ? error.message : String(error);
  if (status === 409 || /already/i.test(message)) return 'already';
  if (status === 404) return 'notFound';
  throw error;
}

export function summarizeInvites(outcomes: readonly InviteOutcome[]): InviteSummary {
  return {
    invited: outcomes.filter((outcome) => outcome === 'invited').length,
    alreadyMembers: outcomes.filter((outcome) => outcome === 'already').length,
    notFound: outcomes.filter((outcome) => outcome === 'notFound').length,
  };
}

export function formatInviteSummary({ invited, alreadyMembers, notFound }: InviteSummary): string {
  return `Invited: ${invited}, Already members: ${alreadyMembers}, Not found: ${notFound}`;
}

/** Spec §5: only the first e-mail of a picked contact is used; none means "not found". */
export function firstEmail(contact: { email?: readonly string[] | null }): string | null {
  const email = contact.email?.find((address) => address.trim() !== '');
  return email ? email.trim() : null;
}

/**
 * Adds each picked contact in turn (sequentially, so a server error stops before more requests) and
 * counts the outcomes. Rejects with InviteAbortedError on a server error, or the request's error.
 */
export async function inviteAll(
  contacts: readonly { email?: readonly string[] | null }[],
  add: (email: string) => Promise<unknown>,
): Promise<InviteSummary> {
  const outcomes: InviteOutcome[] = [];
  for (const contact of contacts) {
    const email = firstEmail(contact);
    if (!email) {
      outcomes.push('notFound');
      continue;
    }
    try {
      await add(email);
      outcomes.push('invited');
    } catch (error) {
      outcomes.push(classifyInviteError(error));
    }
  }
  return summarizeInvites(outcomes);
}
