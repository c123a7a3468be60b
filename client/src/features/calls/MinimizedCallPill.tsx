import { useEffect } from 'react';
import { PhoneOff } from 'lucide-react';
import type { CallState } from './call-state';
import { CallTimer } from './CallTimer';

type LiveCall = Extract<CallState, { phase: 'outgoing' | 'active' }>;

/** Set on `<body>` while the pill shows: the page keeps room at its foot (styles.css), so the pill covers nothing. */
export const PILL_SPACE_ATTRIBUTE = 'data-call-minimized';

/**
 * Spec §2: the minimized call — name and "On call" with the call's running time (or "Calling…"
 * while it rings); click to restore; an end button.
 */
export function MinimizedCallPill({
  state,
  onRestore,
  onEnd,
}: {
  state: LiveCall;
  onRestore: () => void;
  onEnd: () => void;
}) {
  const { call } = state;
  useEffect(() => {
    document.body.setAttribute(PILL_SPACE_ATTRIBUTE, '');
    return () => document.body.removeAttribute(PILL_SPACE_ATTRIBUTE);
  }, []);
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
        {state.phase === 'active' ? (
          <>
            <span className="shrink-0 text-sm">On call</span>
            <CallTimer startedAt={state.startedAt} className="shrink-0 text-sm font-semibold" />
          </>
        ) : (
          <span className="shrink-0 text-sm">Calling…</span>
        )}
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
