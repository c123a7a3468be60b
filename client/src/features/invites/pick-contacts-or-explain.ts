import { toast } from '../../ui/toast-store';
import { pickContacts, type PickedContact } from './contact-picker';

/**
 * Opens the device's contact picker; when nothing usable comes back, says why in a toast (spec §8:
 * "Not supported", "No contacts selected", and `cancelledTitle` when the picker was dismissed).
 */
export async function pickContactsOrExplain(
  cancelledTitle: string,
): Promise<PickedContact[] | null> {
  const picked = await pickContacts();
  switch (picked.kind) {
    case 'unsupported':
      toast({ title: 'Not supported', description: 'This browser cannot share your contacts.' });
      return null;
    case 'cancelled':
      toast({ title: cancelledTitle });
      return null;
    case 'empty':
      toast({ title: 'No contacts selected' });
      return null;
    case 'picked':
      return picked.contacts;
  }
}
