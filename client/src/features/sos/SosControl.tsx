import { SosHoldButton } from './SosHoldButton';
import type { SosTarget } from './sos-target';

/** A long enough hold starts the countdown on the tab's sender (its code loads with the first). */
function startCountdown(target: SosTarget): void {
  import('./sos-sending')
    .then(({ sosSending }) => sosSending.start(target))
    .catch((error: unknown) => console.error('sos: could not start the countdown', error));
}

/** The SOS button wired to the tab's sender. */
export function SosControl({ target }: { target: SosTarget }) {
  return <SosHoldButton target={target} onHeld={startCountdown} />;
}
