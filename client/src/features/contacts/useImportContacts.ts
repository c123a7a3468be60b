import { API_PATHS } from '../../../../protocol/api-paths';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { CONTACTS_KEY, contactsQuery } from '../channels/channel-queries';
import { serverMessage } from '../channels/server-message';
import { pickContactsOrExplain } from '../invites/pick-contacts-or-explain';
import { formatImportSummary, importAll } from './import-summary';

/** Contacts > Import: picks contacts from the device and adds each by its first e-mail (spec §2, §5). */
export function useImportContacts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const contacts = await pickContactsOrExplain('Import cancelled');
      if (!contacts) return;
      const summary = await importAll(
        contacts,
        (email) => apiRequest('POST', API_PATHS.contacts, { email }),
        async () => {
          const list = await queryClient.fetchQuery({ ...contactsQuery, staleTime: 0 });
          return new Set(list.flatMap((user) => (user.email ? [user.email.toLowerCase()] : [])));
        },
      );
      toast({ title: 'Contacts imported', description: formatImportSummary(summary) });
    },
    onError: (error) =>
      toast({ title: 'Import failed', description: serverMessage(error), variant: 'destructive' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: CONTACTS_KEY }),
  });
}
