import { useEffect, useState } from 'react';
import { UserPlus, Users } from 'lucide-react';
import { displayName } from '../../../../protocol/user';
import { Button } from '../../ui/Button';
import { Popover, PopoverContent, PopoverTrigger } from '../../ui/Popover';
import { BusyIcon } from '../../ui/BusyIcon';
import { Spinner } from '../../ui/Spinner';
import { useAuth } from '../auth/useAuth';
import { missedCallsText } from '../calls/missed-calls';
import { markMissedCallListSeen, useUnseenMissedCallCount } from '../calls/useCallHistory';
import { useConversations } from '../channels/useConversations';
import { useUsers } from '../channels/useUsers';
import { hasContactPicker } from '../invites/contact-picker';
import { TopBarButton } from '../shell/TopBarButton';
import { ContactRow } from './ContactRow';
import { useContacts } from './useContacts';
import { useImportContacts } from './useImportContacts';

/** The top bar's Contacts dropdown: every other user with Talk, "N missed" and a call button, and Import (spec §2). */
export function ContactsMenu({ defaultOpen = false }: { defaultOpen?: boolean }) {
  const [open, setOpen] = useState(defaultOpen);
  const missedCalls = useUnseenMissedCallCount();
  // The open list shows who called (each row keeps its mark until called back): the count clears,
  // for what was there when it opened and for what came in while it was open.
  useEffect(() => {
    if (!open) return;
    markMissedCallListSeen();
    return markMissedCallListSeen;
  }, [open]);
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <TopBarButton
          icon={Users}
          label="Contacts"
          count={open ? 0 : missedCalls}
          countLabel={missedCallsText(missedCalls)}
        />
      </PopoverTrigger>
      <PopoverContent aria-label="Contacts">
        {open ? <ContactsPanel onTalk={() => setOpen(false)} /> : null}
      </PopoverContent>
    </Popover>
  );
}

function ContactsPanel({ onTalk }: { onTalk: () => void }) {
  const { user: me } = useAuth();
  const users = useUsers();
  const conversations = useConversations();
  const missed = new Map(
    (conversations.data ?? []).map((conversation) => [conversation.user.id, conversation.missed]),
  );
  const contacts = useContacts();
  const importContacts = useImportContacts();
  const contactIds = new Set((contacts.data ?? []).map((contact) => contact.id));
  const others = (users.data ?? [])
    .filter((user) => user.id !== me?.id)
    // Saved contacts first, then alphabetical, so the people you talk to are at the top.
    .sort(
      (a, b) =>
        Number(contactIds.has(b.id)) - Number(contactIds.has(a.id)) ||
        displayName(a).localeCompare(displayName(b)),
    );

  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between gap-2 px-2 pt-1">
        <h2 className="text-sm font-semibold">Contacts</h2>
        {/* Import needs the device's contact picker; without one it could only say "Not supported". */}
        {hasContactPicker() ? (
          <Button
            size="sm"
            variant="outline"
            disabled={importContacts.isPending}
            onClick={() => importContacts.mutate()}
          >
            {importContacts.isPending ? <BusyIcon /> : <UserPlus aria-hidden="true" />}
            Import
          </Button>
        ) : null}
      </div>
      {users.isLoading ? (
        <Spinner label="Loading contacts" className="justify-center py-4" />
      ) : users.isError ? (
        <p className="px-2 py-3 text-sm text-destructive-text">Could not load people.</p>
      ) : others.length === 0 ? (
        <p className="px-2 py-3 text-sm text-muted-foreground">No one else is here yet.</p>
      ) : (
        <ul className="grid gap-0.5">
          {others.map((user) => (
            <ContactRow
              key={user.id}
              user={user}
              isContact={contactIds.has(user.id)}
              missedTransmissions={missed.get(user.id) ?? 0}
              onTalk={onTalk}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
