import { BellRing, CheckCircle2, MapPin, Minimize2 } from 'lucide-react';
import { AlertDialog } from 'radix-ui';
import { useEffect, useRef, useState } from 'react';
import type { Channel } from '../../../../protocol/channels';
import {
  SOS_ACK_LABEL,
  SOS_RESOLVE_LABEL,
  sosOnItText,
  sosTitle,
  type SosAlert,
} from '../../../../protocol/sos';
import type { User } from '../../../../protocol/user';
import { Button } from '../../ui/Button';
import { BusyIcon } from '../../ui/BusyIcon';
import { canManageChannel } from '../channels/channel-permissions';
import { transmissionAudioUrl } from '../transmissions/transmission-queries';
import { coordinate, geoUri, openStreetMapUrl } from './sos-location';
import { SosSentBanner } from './SosSentBanner';
import { SOS_TEXTS } from './sos-texts';
import { useSosActions } from './useSosActions';

export type SosAlertScreenProps = {
  /** Unresolved alerts, the one to show first. */
  alerts: readonly SosAlert[];
  user: Pick<User, 'id' | 'subscriptionTier'>;
  /** The user's channels (who administers the alert's channel). */
  channels: readonly Channel[] | undefined;
  /** The sender's own microphone, open until then (their SOS just went out). */
  sent: { alertId: string; micUntil: number } | null;
  onMinimise: () => void;
  /** Shows this alert in front (the next one of several). */
  onShow: (alertId: string) => void;
};

const timeOf = (iso: string) =>
  new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** Re-renders when `at` (epoch ms) passes, so "Recording…" gives way on time. */
function usePassed(at: number): boolean {
  const [passedFor, setPassedFor] = useState(() => (Date.now() >= at ? at : null));
  useEffect(() => {
    const timer = setTimeout(() => setPassedFor(at), Math.max(0, at - Date.now() + 50));
    return () => clearTimeout(timer);
  }, [at]);
  return passedFor === at;
}

/**
 * The full-screen SOS alert (decision 050): who, where and when, the location with its accuracy
 * and two map links (no tiles are loaded), the kept audio, who is on it; "I'm on it" for the other
 * members, "Mark resolved" for the sender and the channel's admins. Escape or Minimise folds it
 * into the red banner; it goes only when resolved. Several alerts: the first shows, with a count.
 */
export function SosAlertScreen({
  alerts,
  user,
  channels,
  sent,
  onMinimise,
  onShow,
}: SosAlertScreenProps) {
  const alert = alerts[0];
  const ackRef = useRef<HTMLButtonElement>(null);
  if (!alert) return null;
  const mine = alert.sender.id === user.id;
  const channel = channels?.find((candidate) => candidate.id === alert.channelId);
  const canResolve = mine || canManageChannel(channel, user);
  const title = sosTitle(alert.sender.name);

  return (
    <AlertDialog.Root open onOpenChange={(open) => (open ? undefined : onMinimise())}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-[65] bg-background" />
        <AlertDialog.Content
          data-testid="sos-alert"
          data-alert-id={alert.id}
          // Escape inside the alert minimises it even when a toast is the top layer.
          onKeyDown={(event) => {
            if (event.key === 'Escape') onMinimise();
          }}
          onOpenAutoFocus={(event) => {
            if (!ackRef.current) return;
            event.preventDefault();
            ackRef.current.focus();
          }}
          className="fixed inset-0 z-[65] overflow-y-auto bg-background text-foreground outline-none"
        >
          <div className="mx-auto flex min-h-full max-w-lg flex-col gap-5 px-5 pt-[max(env(safe-area-inset-top),1rem)] pb-[max(env(safe-area-inset-bottom),1.5rem)]">
            <div className="flex items-center justify-between gap-3">
              <p className="flex items-center gap-2 rounded-full bg-destructive px-3 py-1 text-sm font-bold tracking-wider text-destructive-foreground uppercase">
                <BellRing aria-hidden="true" className="size-4" />
                SOS
              </p>
              <Button variant="ghost" size="sm" onClick={onMinimise}>
                <Minimize2 aria-hidden="true" />
                {SOS_TEXTS.minimise}
              </Button>
            </div>
            {sent && sent.alertId === alert.id ? <SosSentBanner micUntil={sent.micUntil} /> : null}
            <div className="grid gap-1">
              <AlertDialog.Title className="font-display text-4xl leading-tight font-extrabold break-words text-destructive-text">
                {title}
              </AlertDialog.Title>
              <AlertDialog.Description className="text-base text-muted-foreground">
                {SOS_TEXTS.inChannel(alert.channelName)} ·{' '}
                {SOS_TEXTS.raisedAt(timeOf(alert.raisedAt))}
              </AlertDialog.Description>
              {alerts[1] ? (
                <button
                  type="button"
                  onClick={() => onShow(alerts[1]!.id)}
                  className="w-max cursor-pointer text-sm font-semibold underline underline-offset-4 hover:text-destructive-text focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                >
                  {SOS_TEXTS.moreAlerts(alerts.length - 1)}
                </button>
              ) : null}
            </div>
            <AlertLocation alert={alert} />
            <AlertAudio alert={alert} />
            <AlertAcks alert={alert} userId={user.id} />
            <AlertActions
              key={alert.id}
              alert={alert}
              mine={mine}
              canResolve={canResolve}
              userId={user.id}
              ackRef={ackRef}
            />
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

function AlertLocation({ alert }: { alert: SosAlert }) {
  const location = alert.location;
  return (
    <section
      aria-labelledby="sos-location-title"
      className="grid gap-2 rounded-2xl border bg-card p-4"
    >
      <h3 id="sos-location-title" className="flex items-center gap-2 text-sm font-semibold">
        <MapPin aria-hidden="true" className="size-4" />
        Location
      </h3>
      {location ? (
        <>
          <p data-testid="sos-coordinates" className="font-mono text-lg tabular-nums">
            {coordinate(location.latitude)}, {coordinate(location.longitude)}
          </p>
          <p className="text-sm text-muted-foreground">
            {SOS_TEXTS.accuracy(location.accuracy)} · {timeOf(location.at)}
          </p>
          <div className="flex flex-wrap gap-2">
            <a
              href={geoUri(location)}
              className="inline-flex min-h-11 items-center rounded-lg bg-primary px-4 text-sm font-semibold text-primary-foreground hover:bg-primary-hover focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            >
              {SOS_TEXTS.openInMaps}
            </a>
            <a
              href={openStreetMapUrl(location)}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex min-h-11 items-center rounded-lg border px-4 text-sm font-semibold hover:bg-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            >
              {SOS_TEXTS.openStreetMap}
            </a>
          </div>
        </>
      ) : (
        <p className="text-sm text-muted-foreground">{SOS_TEXTS.noLocation}</p>
      )}
    </section>
  );
}

function AlertAudio({ alert }: { alert: SosAlert }) {
  const over = usePassed(alert.talkUntil);
  return (
    <section
      aria-labelledby="sos-audio-title"
      className="grid gap-2 rounded-2xl border bg-card p-4"
    >
      <h3 id="sos-audio-title" className="text-sm font-semibold">
        Recording
      </h3>
      {alert.transmissions.length > 0 ? (
        alert.transmissions.map((transmission, index) => (
          <audio
            key={transmission.id}
            controls
            preload="none"
            aria-label={`SOS recording ${index + 1}`}
            data-testid="sos-audio"
            src={transmissionAudioUrl(alert.channelId, transmission.id)}
            className="w-full"
          />
        ))
      ) : (
        <p className="text-sm text-muted-foreground">
          {over ? SOS_TEXTS.noAudio : SOS_TEXTS.recording}
        </p>
      )}
    </section>
  );
}

function AlertAcks({ alert, userId }: { alert: SosAlert; userId: string }) {
  return (
    <section aria-labelledby="sos-acks-title" className="grid gap-2">
      <h3 id="sos-acks-title" className="sr-only">
        Who is on it
      </h3>
      {alert.acks.length > 0 ? (
        <ul data-testid="sos-acks" className="grid gap-1.5">
          {alert.acks.map((ack) => (
            <li key={ack.user.id} className="flex items-center gap-2 font-medium">
              <CheckCircle2 aria-hidden="true" className="size-5 shrink-0 text-success" />
              {ack.user.id === userId ? SOS_TEXTS.youAreOnIt : sosOnItText(ack.user.name)}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">{SOS_TEXTS.nobodyYet}</p>
      )}
    </section>
  );
}

function AlertActions({
  alert,
  mine,
  canResolve,
  userId,
  ackRef,
}: {
  alert: SosAlert;
  mine: boolean;
  canResolve: boolean;
  userId: string;
  ackRef: React.RefObject<HTMLButtonElement | null>;
}) {
  const { ack, resolve } = useSosActions(alert.id);
  const acked = alert.acks.some((entry) => entry.user.id === userId);
  return (
    <div className="mt-auto grid gap-3">
      {!mine && !acked ? (
        <Button
          ref={ackRef}
          size="lg"
          className="min-h-14 text-lg"
          disabled={ack.isPending}
          onClick={() => ack.mutate()}
        >
          {ack.isPending ? <BusyIcon /> : null}
          {SOS_ACK_LABEL}
        </Button>
      ) : null}
      {canResolve ? (
        <Button
          size="lg"
          variant="outline"
          className="min-h-12"
          disabled={resolve.isPending}
          onClick={() => resolve.mutate()}
        >
          {resolve.isPending ? <BusyIcon /> : <CheckCircle2 aria-hidden="true" />}
          {SOS_RESOLVE_LABEL}
        </Button>
      ) : null}
    </div>
  );
}
