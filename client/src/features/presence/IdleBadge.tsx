import { Moon } from 'lucide-react';
import { Badge } from '../../ui/Badge';
import { usePresence } from './usePresence';

/** Spec §2: the top bar's "Idle - Saving Minutes" badge, shown while idle and online. */
export function IdleBadge() {
  const { idle, online } = usePresence();
  if (!idle || !online) return null;
  return (
    <Badge variant="warning" role="status">
      <Moon aria-hidden="true" />
      Idle - Saving Minutes
    </Badge>
  );
}
