import { useId, useState, type FormEvent } from 'react';
import { KeyRound } from 'lucide-react';
import { MIN_PASSWORD_LENGTH } from '../../../../protocol/account';
import { Button } from '../../ui/Button';
import { BusyIcon } from '../../ui/BusyIcon';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { Input } from '../../ui/Input';
import { Label } from '../../ui/Label';
import { toast } from '../../ui/toast-store';
import { serverMessage } from '../channels/server-message';
import { useChangePassword } from './useAccount';

/**
 * Settings, for accounts of the built-in provider: a new password, with the current one. Other
 * devices are signed out by the server; this one stays signed in.
 */
export function ChangePasswordCard() {
  const id = useId();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const change = useChangePassword();
  const tooShort = newPassword.length > 0 && newPassword.length < MIN_PASSWORD_LENGTH;
  const error = change.isError ? serverMessage(change.error) : tooShort ? `Passwords are at least ${MIN_PASSWORD_LENGTH} characters` : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!currentPassword || newPassword.length < MIN_PASSWORD_LENGTH || change.isPending) return;
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          setCurrent('');
          setNew('');
          toast({ title: 'Password changed', description: 'Your other devices have been signed out.' });
        },
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Password</CardTitle>
        <CardDescription>Change the password you sign in with.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-current`}>Current password</Label>
            <Input
              id={`${id}-current`}
              type="password"
              autoComplete="current-password"
              value={currentPassword}
              onChange={(event) => {
                change.reset();
                setCurrent(event.target.value);
              }}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-new`}>New password</Label>
            <Input
              id={`${id}-new`}
              type="password"
              autoComplete="new-password"
              minLength={MIN_PASSWORD_LENGTH}
              value={newPassword}
              aria-invalid={error !== null || undefined}
              aria-describedby={error ? `${id}-error` : `${id}-hint`}
              onChange={(event) => {
                change.reset();
                setNew(event.target.value);
              }}
            />
            {error ? (
              <p id={`${id}-error`} role="alert" className="text-sm text-destructive-text">
                {error}
              </p>
            ) : (
              <p id={`${id}-hint`} className="text-sm text-muted-foreground">
                At least {MIN_PASSWORD_LENGTH} characters.
              </p>
            )}
          </div>
          <Button
            type="submit"
            className="sm:justify-self-end"
            disabled={!currentPassword || newPassword.length < MIN_PASSWORD_LENGTH || change.isPending}
          >
            {change.isPending ? <BusyIcon /> : <KeyRound aria-hidden="true" />}
            Change password
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
