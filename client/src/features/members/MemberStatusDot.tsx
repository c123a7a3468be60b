import { cn } from '../../lib/cn';
import { MEMBER_DOT_CLASSES, type MemberStatus } from './member-status';

/**
 * The coloured presence dot (spec §4); decorative, the label beside it carries the meaning.
 * `pulsing`: the member's voice is heard right now (never for a silent open microphone).
 */
export function MemberStatusDot({
  status,
  pulsing = false,
  className,
}: {
  status: MemberStatus;
  pulsing?: boolean;
  className?: string;
}) {
  return (
    <span
      aria-hidden="true"
      data-status={status}
      className={cn(
        'inline-block size-2.5 shrink-0 rounded-full',
        MEMBER_DOT_CLASSES[status],
        pulsing && 'motion-safe:animate-pulse',
        className,
      )}
    />
  );
}
