import { Mic } from 'lucide-react';
import { useEffect, useState } from 'react';
import { cn } from '../../lib/cn';
import { SOS_TEXTS } from './sos-texts';

const secondsUntil = (until: number) => Math.max(0, Math.ceil((until - Date.now()) / 1000));

/** "SOS sent · your microphone is open · 8 s", counting down while the sender's voice is on the air. */
export function SosSentBanner({ micUntil, className }: { micUntil: number; className?: string }) {
  const [left, setLeft] = useState(() => secondsUntil(micUntil));
  useEffect(() => {
    const tick = () => setLeft(secondsUntil(micUntil));
    tick();
    const interval = setInterval(tick, 250);
    return () => clearInterval(interval);
  }, [micUntil]);
  return (
    <p
      role="status"
      data-testid="sos-sent-banner"
      className={cn(
        'flex items-center justify-center gap-2 rounded-full bg-destructive px-4 py-2 text-sm font-semibold text-destructive-foreground shadow-lg',
        className,
      )}
    >
      <Mic aria-hidden="true" className="size-4 shrink-0" />
      {left > 0 ? SOS_TEXTS.sentBanner(left) : SOS_TEXTS.sentDone}
    </p>
  );
}
