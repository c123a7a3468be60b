import { useId, useState, type FormEvent } from 'react';
import { Save } from 'lucide-react';
import { changeNameBodySchema, NAME_PART_MAX_LENGTH } from '../../../../protocol/account';
import { displayName, type User } from '../../../../protocol/user';
import { Button } from '../../ui/Button';
import { BusyIcon } from '../../ui/BusyIcon';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { Input } from '../../ui/Input';
import { Label } from '../../ui/Label';
import { useChangeName } from './useAccount';

/**
 * Settings → You: the user's own first and last name. Both are needed: people see "First Last"
 * (spec §3's display name), and without both they would see the e-mail address instead.
 */
export function NameCard({ user }: { user: User }) {
  const id = useId();
  const [firstName, setFirstName] = useState(user.firstName ?? '');
  const [lastName, setLastName] = useState(user.lastName ?? '');
  const change = useChangeName();
  const parsed = changeNameBodySchema.safeParse({ firstName, lastName });
  const unchanged =
    parsed.success && parsed.data.firstName === user.firstName && parsed.data.lastName === user.lastName;
  const touched = firstName !== (user.firstName ?? '') || lastName !== (user.lastName ?? '');
  const error = touched && !parsed.success ? (parsed.error.issues[0]?.message ?? null) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!parsed.success || unchanged || change.isPending) return;
    change.mutate(parsed.data, {
      onSuccess: (saved) => {
        setFirstName(saved.firstName ?? '');
        setLastName(saved.lastName ?? '');
      },
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Your name</CardTitle>
        <CardDescription>
          People see you as <span className="font-medium text-foreground">{displayName(user)}</span>{' '}
          in channels, contacts and calls.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-2">
              <Label htmlFor={`${id}-first`}>First name</Label>
              <Input
                id={`${id}-first`}
                autoComplete="given-name"
                maxLength={NAME_PART_MAX_LENGTH}
                value={firstName}
                aria-invalid={error !== null && !firstName.trim() ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                onChange={(event) => setFirstName(event.target.value)}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor={`${id}-last`}>Last name</Label>
              <Input
                id={`${id}-last`}
                autoComplete="family-name"
                maxLength={NAME_PART_MAX_LENGTH}
                value={lastName}
                aria-invalid={error !== null && !lastName.trim() ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                onChange={(event) => setLastName(event.target.value)}
              />
            </div>
          </div>
          {error ? (
            <p id={`${id}-error`} role="alert" className="text-sm text-destructive-text">
              {error}
            </p>
          ) : null}
          <Button
            type="submit"
            className="sm:justify-self-end"
            disabled={!parsed.success || unchanged || change.isPending}
          >
            {change.isPending ? <BusyIcon /> : <Save aria-hidden="true" />}
            Save name
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
