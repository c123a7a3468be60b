import { describe, expect, it } from 'vitest';
import { formatImportSummary, importAll } from './import-summary';

/** A stand-in server: any address is answered alike; registered ones join the list. */
function server(registered: string[], contacts: string[] = []) {
  const list = new Set(contacts);
  const posted: string[] = [];
  return {
    posted,
    add: async (email: string) => {
      posted.push(email);
      if (registered.includes(email)) list.add(email);
      return { message: 'same for every address' };
    },
    contactEmails: async () => new Set(list),
  };
}

describe('importAll', () => {
  it('reads added, already and not found from the contact list, since every answer is alike', async () => {
    const s = server(['bob@example.com', 'cy@example.com'], ['cy@example.com']);
    const summary = await importAll(
      [
        { email: ['Bob@Example.com', 'other@example.com'] },
        { email: ['cy@example.com'] },
        { email: ['nobody@example.com'] },
        { email: [] },
        {},
      ],
      s.add,
      s.contactEmails,
    );
    expect(summary).toEqual({ added: 1, alreadyContacts: 1, notFound: 3 });
    expect(formatImportSummary(summary)).toBe('Added: 1, Already contacts: 1, Not found: 3');
    // Only the first address of each contact is sent, and never one already in the list.
    expect(s.posted).toEqual(['bob@example.com', 'nobody@example.com']);
  });

  it('stops at the first failure', async () => {
    const failing = async () =>
      Promise.reject(new Error('429: {"message":"Too many contacts added for now."}'));
    await expect(
      importAll([{ email: ['a@example.com'] }], failing, async () => new Set<string>()),
    ).rejects.toThrow('429');
  });
});
