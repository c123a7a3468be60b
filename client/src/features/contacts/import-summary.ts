import { errorStatus } from '../../lib/query-client';
import { firstEmail } from '../invites/invite-summary';

export type ImportSummary = { added: number; alreadyContacts: number; notFound: number };

/**
 * Adds each picked contact by its first e-mail (spec §5). 409 is an existing contact and 404 an
 * address without an account; other failures stop the import.
 */
export async function importAll(
  contacts: readonly { email?: readonly string[] | null }[],
  add: (email: string) => Promise<unknown>,
): Promise<ImportSummary> {
  const summary: ImportSummary = { added: 0, alreadyContacts: 0, notFound: 0 };
  for (const contact of contacts) {
    const email = firstEmail(contact);
    if (!email) {
      summary.notFound += 1;
      continue;
    }
    try {
      await add(email);
      summary.added += 1;
    } catch (error) {
      const status = errorStatus(error);
      if (status === 409) summary.alreadyContacts += 1;
      else if (status === 404) summary.notFound += 1;
      else throw error;
    }
  }
  return summary;
}

export function formatImportSummary({ added, alreadyContacts, notFound }: ImportSummary): string {
  return `Added: ${added}, Already contacts: ${alreadyContacts}, Not found: ${notFound}`;
}
