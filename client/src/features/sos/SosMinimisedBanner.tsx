import { BellRing } from 'lucide-react';
import { sosTitle, type SosAlert } from '../../../../protocol/sos';
import { SOS_TEXTS } from './sos-texts';

/** The minimised alert: a red banner on every screen until the alert is resolved; a tap opens it. */
export function SosMinimisedBanner({ alert, onOpen }: { alert: SosAlert; onOpen: () => void }) {
  return (
    <button
      type="button"
      data-testid="sos-banner"
      onClick={onOpen}
      className="fixed inset-x-0 top-[max(env(safe-area-inset-top),0.5rem)] z-[60] mx-auto flex w-max max-w-[calc(100%-1rem)] cursor-pointer items-center gap-2 rounded-full bg-destructive px-4 py-2.5 text-sm font-bold text-destructive-foreground shadow-xl hover:bg-destructive-hover focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      <BellRing aria-hidden="true" className="size-4 shrink-0 motion-safe:animate-pulse" />
      <span className="truncate">
        {sosTitle(alert.sender.name)} — {SOS_TEXTS.open}
      </span>
    </button>
  );
}
