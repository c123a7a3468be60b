/**
 * The invite token of an invite link's address (`?channel=…&invite=…`), if this is one. On its own
 * so the landing can ask without loading the invite preview's code.
 */
export function inviteTokenOf(search: string): string | null {
  // INVITE_URL_PARAMS.token of protocol/invites.ts, which loads zod: the landing never does.
  return new URLSearchParams(search).get('invite') || null;
}
