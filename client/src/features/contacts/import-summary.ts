import { firstEmail } from '../invites/invite-summary';

export type ImportSummary = { added: number; alreadyContacts: number; notFound: number };

/**
 * Adds each picked contact by its first e-mail (spec §5). The server answers alike for every
 * address (decision 026), so the summary is read from the contact list: an address already in it is
 * an existing contact (not sent again), one in it after adding was added, any other was not found.
 * Failures stop the import.
 */
export async function importAll(
  contacts: readonly { email?: readonly string[] | null }[],
  add: (email: string) => Promise<unknown>,
  contactEmails: () => Promise<ReadonlySet<string>>,
): Promise<ImportSummary> {
  const summary: ImportSummary = { added: 0, alreadyContacts: 0, notFound: 0 };
  const before = await contactEmails();
  const sent = new Set<string>();
  for (const contact of contacts) {
    const email = firstEmail(contact)?.toLowerCase();
    if (!email) summary.notFound += 1;
    else if (before.has(email)) summary.alreadyContacts += 1;
    else if (!sent.has(email)) {
      await add(email);
      sent.add(email);
    }
  }
  if (sent.size === 0) return summary;
  const after = await contactEmails();
  for (const email of sent) {
    if (after.has(email)) summary.added += 1;
    else summary.notFound += 1;
  }
  return summary;
}

export function formatImportSummary({ added, alreadyContacts, notFound }: ImportSummary): string {
  return `Added: ${added}, Already contacts: ${alreadyContacts}, Not found: ${notFound}`;
}
