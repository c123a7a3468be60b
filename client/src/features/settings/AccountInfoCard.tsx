import type { User } from '../../../../protocol/user';
import { displayName } from '../../../../protocol/user';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/Card';

/** Spec §2: user id, email or "Not provided", name (display name) or email or "Guest". */
export function AccountInfoCard({ user }: { user: User | null }) {
  const rows: [string, string][] = [
    ['User ID', user?.id ?? 'guest'],
    ['Email', user?.email || 'Not provided'],
    ['Name', (user && displayName(user)) || user?.email || 'Guest'],
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Account Information</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3 sm:grid-cols-[8rem_1fr]">
          {rows.map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="text-sm text-muted-foreground">{term}</dt>
              <dd className="min-w-0 text-sm font-medium break-all">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
