import { useState, type FormEvent } from 'react';
import { KeyRound } from 'lucide-react';
import { Button } from '../../ui/Button';
import { BusyIcon } from '../../ui/BusyIcon';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { Input } from '../../ui/Input';
import { Label } from '../../ui/Label';
import { toast } from '../../ui/toast-store';
import { serverMessage } from '../channels/server-message';
import { useClaimServer, useSetupStatus } from './useOwnerSetup';

/**
 * Shown only while the server has no owner: the person who runs it enters the one-time setup code
 * from the server's log (or its data folder) and becomes the Super Admin.
 */
export function ClaimServerCard({ isSuperadmin }: { isSuperadmin: boolean }) {
  const status = useSetupStatus(!isSuperadmin);
  const claim = useClaimServer();
  const [code, setCode] = useState('');

  if (isSuperadmin || status.data?.ownerClaimed !== false) return null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return;
    claim.mutate(code.trim(), {
      onSuccess: () => toast({ title: 'This server is yours', description: 'You are now the Super Admin.' }),
    });
  };
  const error = claim.isError ? serverMessage(claim.error) : null;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRound aria-hidden="true" className="size-5" />
          Claim this server
        </CardTitle>
        <CardDescription>
          This server has no owner yet. If you run it, enter the setup code from its log or from the
          file owner-setup-code in its data folder to become its Super Admin.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="grid gap-2">
          <Label htmlFor="owner-setup-code">Setup code</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              id="owner-setup-code"
              value={code}
              onChange={(event) => setCode(event.target.value)}
              autoComplete="off"
              spellCheck={false}
              placeholder="XXXXX-XXXXX-XXXXX-XXXXX"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'owner-setup-code-error' : undefined}
              className="font-mono sm:flex-1"
            />
            <Button type="submit" disabled={claim.isPending || !code.trim()}>
              {claim.isPending ? <BusyIcon /> : null}
              Claim server
            </Button>
          </div>
          {error ? (
            <p id="owner-setup-code-error" role="alert" className="text-sm text-destructive-text">
              {error}
            </p>
          ) : null}
        </form>
      </CardContent>
    </Card>
  );
}
