import { useId, useMemo, useState, type ReactNode } from 'react';
import { Bell, BellOff, Send } from 'lucide-react';
import {
  PUSH_SUBSCRIBED_MESSAGE,
  PUSH_TEST_SENT_MESSAGE,
  PUSH_UNSUBSCRIBED_MESSAGE,
  type PushPreferences,
} from '../../../../protocol/push';
import { Button } from '../../ui/Button';
import { BusyIcon } from '../../ui/BusyIcon';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { toast } from '../../ui/toast-store';
import { serverMessage } from '../channels/server-message';
import { PushPermissionDenied } from '../notifications/push-device';
import { browserTraits, pushSupport } from '../notifications/push-support';
import { usePushDevice, usePushPreferences } from '../notifications/usePushDevice';

export const NOTIFICATION_TEXTS = {
  unsupported:
    'This browser cannot show notifications from Chirp. A recent Chrome, Edge, Firefox or Safari can.',
  needsHomeScreen:
    'On iPhone and iPad, Chirp can notify you once it is on your Home Screen: tap Share, then “Add to Home Screen”, and open Chirp from there.',
  denied:
    'Notifications are blocked for Chirp in this browser. To allow them again, open the site settings (the icon beside the address), set Notifications to Allow, and reload.',
  off: 'Get calls, pokes and walkie-talkie messages when Chirp is closed.',
} as const;

const KINDS: { key: keyof PushPreferences; label: string; help: string }[] = [
  { key: 'calls', label: 'Calls', help: 'Incoming and missed calls.' },
  { key: 'pokes', label: 'Pokes', help: 'When someone pokes you in a channel.' },
  { key: 'transmissions', label: 'Walkie-talkie messages', help: 'What was said while you were away.' },
  { key: 'channelAdds', label: 'Added to a channel', help: 'When someone adds you to a channel.' },
];

/** Settings → Notifications: Web Push on this device, a test, and which kinds of event notify. */
export function NotificationsCard() {
  const support = useMemo(() => pushSupport(browserTraits()), []);
  const supported = support === 'supported';
  const { device, turnOn, turnOff, test } = usePushDevice(supported);
  const state = device.data?.status;
  const error =
    turnOn.isError
      ? turnOn.error instanceof PushPermissionDenied
        ? state === 'denied'
          ? null
          : 'Chirp was not allowed to notify you. Turn on again to be asked again.'
        : `Could not turn on notifications: ${serverMessage(turnOn.error)}`
      : turnOff.isError
        ? `Could not turn off notifications: ${serverMessage(turnOff.error)}`
        : test.isError
          ? serverMessage(test.error)
          : device.isError
            ? 'Could not read this device’s notifications'
            : null;
  const busy = turnOn.isPending || turnOff.isPending;

  let body: ReactNode;
  if (support === 'unsupported') body = <Note>{NOTIFICATION_TEXTS.unsupported}</Note>;
  else if (support === 'needs-home-screen') body = <Note>{NOTIFICATION_TEXTS.needsHomeScreen}</Note>;
  else if (state === 'denied') body = <Note>{NOTIFICATION_TEXTS.denied}</Note>;
  else if (state === 'on') {
    const endpoint = device.data?.status === 'on' ? device.data.endpoint : '';
    body = (
      <>
        <p role="status" className="text-sm font-medium">
          {PUSH_SUBSCRIBED_MESSAGE}
        </p>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button
            variant="outline"
            disabled={test.isPending}
            onClick={() => {
              turnOn.reset();
              test.mutate(endpoint, { onSuccess: () => toast({ title: PUSH_TEST_SENT_MESSAGE }) });
            }}
          >
            {test.isPending ? <BusyIcon /> : <Send aria-hidden="true" />}
            Send a test notification
          </Button>
          <Button
            variant="ghost"
            disabled={busy}
            onClick={() => {
              test.reset();
              turnOff.mutate(undefined, { onSuccess: () => toast({ title: PUSH_UNSUBSCRIBED_MESSAGE }) });
            }}
          >
            {turnOff.isPending ? <BusyIcon /> : <BellOff aria-hidden="true" />}
            Turn off
          </Button>
        </div>
      </>
    );
  } else {
    body = (
      <>
        <Note>{NOTIFICATION_TEXTS.off}</Note>
        <Button
          className="w-full sm:w-fit"
          disabled={busy || state === undefined}
          onClick={() => {
            turnOff.reset();
            turnOn.mutate(undefined, { onSuccess: () => toast({ title: PUSH_SUBSCRIBED_MESSAGE }) });
          }}
        >
          {turnOn.isPending ? <BusyIcon /> : <Bell aria-hidden="true" />}
          Turn on notifications on this device
        </Button>
      </>
    );
  }

  return (
    <Card id="notifications" aria-labelledby="notifications-title">
      <CardHeader>
        <CardTitle id="notifications-title">Notifications</CardTitle>
        <CardDescription>Reach you when Chirp is closed.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {body}
        {error ? (
          <p role="alert" className="text-sm text-destructive-text">
            {error}
          </p>
        ) : null}
        <PushKindSwitches />
      </CardContent>
    </Card>
  );
}

function Note({ children }: { children: ReactNode }) {
  return <p className="text-sm text-muted-foreground">{children}</p>;
}

/** Which kinds notify: kept on the server, so they hold on every device of mine. */
function PushKindSwitches() {
  const { preferences, save } = usePushPreferences(true);
  const id = useId();
  // What was just clicked shows at once, in the click's own render, until the server has answered
  // (the query cache tells its readers a moment later, and a switch must not jump back meanwhile).
  const [clicked, setClicked] = useState<PushPreferences | null>(null);
  const values = clicked ?? preferences.data;
  return (
    <fieldset className="grid gap-2" aria-describedby={`${id}-legend-help`}>
      <legend className="font-medium">Notify me of</legend>
      <p id={`${id}-legend-help`} className="text-sm text-muted-foreground">
        On all your devices with notifications on.
      </p>
      {preferences.isError ? (
        <p role="alert" className="text-sm text-destructive-text">
          Could not load which notifications you get
        </p>
      ) : null}
      {save.isError ? (
        <p role="alert" className="text-sm text-destructive-text">
          Could not save: {serverMessage(save.error)}
        </p>
      ) : null}
      <div className="grid gap-2 sm:grid-cols-2">
        {KINDS.map((kind) => (
          <div
            key={kind.key}
            className="flex items-start gap-3 rounded-lg border border-border p-3 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring"
          >
            <input
              id={`${id}-${kind.key}`}
              type="checkbox"
              role="switch"
              checked={values?.[kind.key] ?? false}
              disabled={!values || save.isPending}
              onChange={(event) => {
                if (!values) return;
                const next = { ...values, [kind.key]: event.target.checked };
                setClicked(next);
                save.mutate(next, { onSettled: () => setClicked(null) });
              }}
              aria-describedby={`${id}-${kind.key}-help`}
              className="mt-1 accent-[var(--primary)]"
            />
            <label htmlFor={`${id}-${kind.key}`} className="cursor-pointer">
              <span className="block font-medium">{kind.label}</span>
              <span id={`${id}-${kind.key}-help`} className="block text-sm text-muted-foreground">
                {kind.help}
              </span>
            </label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
