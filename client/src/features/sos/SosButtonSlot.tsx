import { Suspense, lazy } from 'react';
import { useCurrentChannel } from '../channels/current-channel';
import { useUserChannels } from '../channels/useUserChannels';
import { sosTarget } from './sos-target';

// The button's code (the hold, the countdown and sending) loads only for members of an SOS channel.
const SosControl = lazy(() => import('./SosControl').then((m) => ({ default: m.SosControl })));

/** The SOS button's place on the main screen: shown, online or offline, in any SOS channel's member. */
export function SosButtonSlot() {
  const { channelId } = useCurrentChannel();
  const target = sosTarget(useUserChannels().data, channelId);
  if (!target) return null;
  return (
    <Suspense fallback={<div aria-hidden="true" className="h-22" />}>
      <SosControl target={target} />
    </Suspense>
  );
}
