import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import type { Account } from '../../../../protocol/account';
import { API_PATHS } from '../../../../protocol/api-paths';
import { Button } from '../../ui/Button';
import { BusyIcon } from '../../ui/BusyIcon';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../ui/Dialog';
import { Input } from '../../ui/Input';
import { Label } from '../../ui/Label';
import { serverMessage } from '../channels/server-message';
import { useDeleteAccount } from './useAccount';

/** Settings: delete your own account and everything that is yours, after a confirmation. */
export function DeleteAccountCard({ account }: { account: Account }) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const confirm = () => {
    // The list of channels that go with the account must be current when the question is asked.
    void queryClient.invalidateQueries({ queryKey: [API_PATHS.account] });
    setOpen(true);
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Delete account</CardTitle>
        <CardDescription>
          Removes your account, your contacts, blocks, call history and usage, and the channels you created.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="destructive" onClick={confirm}>
          <Trash2 aria-hidden="true" />
          Delete my account
        </Button>
      </CardContent>
      <DeleteAccountDialog account={account} open={open} onOpenChange={setOpen} />
    </Card>
  );
}

function DeleteAccountDialog({ account, open, onOpenChange }: { account: Account; open: boolean; onOpenChange: (open: boolean) => void }) {
  const id = useId();
  const [password, setPassword] = useState('');
  const remove = useDeleteAccount();
  const channels = account.createdChannels;
  const ready = !account.passwordSignIn || password.length > 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || remove.isPending) return;
    remove.mutate(account.passwordSignIn ? { password } : {});
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          setPassword('');
          remove.reset();
        }
        onOpenChange(next);
      }}
    >
      <DialogContent role="alertdialog">
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Delete your account?</DialogTitle>
            <DialogDescription>
              This cannot be undone. You are signed out and everything that is yours is deleted.
            </DialogDescription>
          </DialogHeader>
          {channels.length > 0 ? (
            <div className="grid gap-2 text-sm">
              <p>These channels you created are deleted for everyone in them:</p>
              <ul className="list-inside list-disc text-muted-foreground">
                {channels.map((channel) => (
                  <li key={channel.id}>
                    {channel.name} ({channel.memberCount} {channel.memberCount === 1 ? 'member' : 'members'})
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {account.passwordSignIn ? (
            <div className="grid gap-2">
              <Label htmlFor={`${id}-password`}>Your password</Label>
              <Input
                id={`${id}-password`}
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(event) => {
                  remove.reset();
                  setPassword(event.target.value);
                }}
              />
            </div>
          ) : null}
          {remove.isError ? (
            <p role="alert" className="text-sm text-destructive-text">
              {serverMessage(remove.error)}
            </p>
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" variant="destructive" disabled={!ready || remove.isPending}>
              {remove.isPending ? <BusyIcon /> : null}
              Delete account
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
