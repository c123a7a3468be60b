import { PhoneOff } from 'lucide-react';
import type { CallInfo } from './call-state';

/** Spec §2: the minimized call — name and "On call"; click to restore; an end button. */
export function MinimizedCallPill({
  call,
  onRestore,
  onEnd,
}: {
  call: CallInfo;
  onRestore: () => void;
  onEnd: () => void;
}) {
  return (
    <div
      data-testid="minimized-call"
      className="fixed inset-x-0 bottom-[max(env(safe-area-inset-bottom),1rem)] z-[60] mx-auto flex w-max max-w-[calc(100%-2rem)] items-center gap-1 rounded-full bg-primary p-1 pl-1 text-primary-foreground shadow-xl animate-pop-in"
    >
      <button
        type="button"
        onClick={onRestore}
        aria-label={`Restore call with ${call.contactName}`}
        className="flex min-w-0 cursor-pointer items-center gap-2 rounded-full py-1.5 pr-3 pl-3 text-left hover:bg-primary-hover focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      >
        <span
          aria-hidden="true"
          className="size-2.5 shrink-0 animate-pulse rounded-full bg-primary-foreground motion-reduce:animate-none"
        />
        <span className="truncate font-medium">{call.contactName}</span>
        <span className="shrink-0 text-sm">On call</span>
      </button>
      <button
        type="button"
        onClick={onEnd}
        aria-label="End call"
        className="flex size-9 shrink-0 cursor-pointer items-center justify-center rounded-full bg-destructive text-destructive-foreground hover:bg-destructive-hover focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring [&_svg]:size-4"
      >
        <PhoneOff aria-hidden="true" />
      </button>
    </div>
  );
}
