/** A contact from the Contact Picker API (`navigator.contacts.select`). */
export type PickedContact = { name?: string[]; email?: string[] };

type ContactsManager = {
  select: (
    properties: readonly ('name' | 'email')[],
    options?: { multiple?: boolean },
  ) => Promise<PickedContact[]>;
};

/** The Contact Picker API where the browser has it (Chrome on Android), else null. */
export function contactPicker(): ContactsManager | null {
  const candidate = (navigator as Navigator & { contacts?: Partial<ContactsManager> }).contacts;
  return candidate && typeof candidate.select === 'function'
    ? (candidate as ContactsManager)
    : null;
}

/**
 * Whether this browser can pick contacts at all. Import and Invite are not offered where it
 * cannot (desktop browsers): a button that can only answer "Not supported" is noise (decision 048).
 */
export function hasContactPicker(): boolean {
  return contactPicker() !== null;
}

export type PickResult =
  | { kind: 'unsupported' }
  | { kind: 'cancelled' }
  | { kind: 'empty' }
  | { kind: 'picked'; contacts: PickedContact[] };

/** Opens the picker for names and e-mails; a rejected picker means the user backed out. */
export async function pickContacts(): Promise<PickResult> {
  const picker = contactPicker();
  if (!picker) return { kind: 'unsupported' };
  let contacts: PickedContact[];
  try {
    contacts = await picker.select(['name', 'email'], { multiple: true });
  } catch {
    return { kind: 'cancelled' };
  }
  return contacts.length === 0 ? { kind: 'empty' } : { kind: 'picked', contacts };
}
