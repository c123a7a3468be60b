import { Suspense, lazy, useSyncExternalStore } from 'react';
import { useAuth } from '../auth/useAuth';
import { useQuery } from '@tanstack/react-query';
import { userChannelsQuery } from '../channels/channel-queries';
import { sosAlerts, useSosAlerts } from './sos-alerts-store';
import { sosSending } from './sos-sending';
import { SosMinimisedBanner } from './SosMinimisedBanner';
import { SosSentBanner } from './SosSentBanner';
import { useSosTap } from './useSosTap';

// The full screens load when first needed: a countdown, or an alert.
const SosCountdown = lazy(() =>
  import('./SosCountdown').then((m) => ({ default: m.SosCountdown })),
);
const SosAlertScreen = lazy(() =>
  import('./SosAlertScreen').then((m) => ({ default: m.SosAlertScreen })),
);

/**
 * Everything SOS shows above the screens (decision 050): the sender's countdown, then their open
 * microphone's banner; the alert screen for every unresolved alert, or its red banner when
 * minimised. The countdown comes first: nothing else can be pressed during it.
 */
export function SosOverlays() {
  const { user } = useAuth();
  const sender = useSyncExternalStore(sosSending.subscribe, sosSending.getView, sosSending.getView);
  const { alerts, minimised } = useSosAlerts();
  // Who administers an alert's channel (the polled list is already in the cache).
  const channels = useQuery({ ...userChannelsQuery(user?.id ?? ''), enabled: user !== null });
  useSosTap(sosAlerts);
  const front = alerts[0];

  if (sender.phase === 'countdown' || sender.phase === 'sending')
    return (
      <Suspense fallback={null}>
        <SosCountdown
          target={sender.target}
          endsAt={sender.phase === 'countdown' ? sender.endsAt : null}
          onCancel={() => sosSending.cancel()}
        />
      </Suspense>
    );
  const sent =
    sender.phase === 'sent' ? { alertId: sender.alertId, micUntil: sender.micUntil } : null;
  return (
    <>
      {sent && (minimised || !front) ? (
        <SosSentBanner
          micUntil={sent.micUntil}
          className="fixed inset-x-0 bottom-[max(env(safe-area-inset-bottom),1rem)] z-[60] mx-auto w-max max-w-[calc(100%-1rem)]"
        />
      ) : null}
      {front && user ? (
        minimised ? (
          <SosMinimisedBanner alert={front} onOpen={() => sosAlerts.setMinimised(false)} />
        ) : (
          <Suspense fallback={null}>
            <SosAlertScreen
              alerts={alerts}
              user={user}
              channels={channels.data}
              sent={sent}
              onMinimise={() => sosAlerts.setMinimised(true)}
              onShow={(alertId) => sosAlerts.bringToFront(alertId)}
            />
          </Suspense>
        )
      ) : null}
    </>
  );
}
