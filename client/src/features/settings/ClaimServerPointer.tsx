import { KeyRound } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '../../ui/Button';
import { useAuth } from '../auth/useAuth';
import { useSetupStatus } from './useOwnerSetup';

/**
 * Where the person who runs a fresh server lands after signing in (no channel yet): while the server
 * has no owner, a pointer to Settings → Claim this server. Gone once anyone has claimed it.
 */
export function ClaimServerPointer() {
  const { user } = useAuth();
  const isSuperadmin = user?.subscriptionTier === 'superadmin';
  const status = useSetupStatus(user !== null && !isSuperadmin);
  if (!user || isSuperadmin || status.data?.ownerClaimed !== false) return null;

  return (
    <aside
      aria-labelledby="claim-server-pointer-title"
      className="grid w-full max-w-sm gap-3 rounded-2xl border bg-card p-4 text-left shadow-sm"
    >
      <h2 id="claim-server-pointer-title" className="flex items-center gap-2 text-base font-semibold">
        <KeyRound aria-hidden="true" className="size-5 shrink-0 text-primary" />
        This server has no owner yet
      </h2>
      <p className="text-sm text-muted-foreground">
        Do you run it? Open Settings → Claim this server and enter the owner setup code from the
        server&apos;s log to become its Super Admin and create channels.
      </p>
      <Link href="/settings?section=server" className={buttonClasses('default')}>
        Claim this server
      </Link>
    </aside>
  );
}
