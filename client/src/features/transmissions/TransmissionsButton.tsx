import { Suspense, lazy, useState } from 'react';
import { History } from 'lucide-react';
import type { Channel } from '../../../../protocol/channels';
import { Button } from '../../ui/Button';
import { useTransmissions } from './transmission-queries';
import { TRANSMISSION_TEXTS } from './transmission-texts';

// The player's code loads when someone first opens the list.
const TransmissionsDialog = lazy(() =>
  import('./TransmissionsDialog').then((m) => ({ default: m.TransmissionsDialog })),
);

/**
 * A walkie-talkie channel's kept transmissions: "N missed" when something was said while the
 * member was away, otherwise "Transmissions". Opens the list and the player.
 */
export function TransmissionsButton({ channel }: { channel: Channel }) {
  const list = useTransmissions(channel.id, true);
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const missed = list.data?.missed ?? 0;
  return (
    <>
      <Button
        size="sm"
        variant={missed > 0 ? 'default' : 'outline'}
        aria-haspopup="dialog"
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        <History aria-hidden="true" />
        {missed > 0 ? TRANSMISSION_TEXTS.missed(missed) : TRANSMISSION_TEXTS.button}
      </Button>
      {used ? (
        <Suspense fallback={null}>
          <TransmissionsDialog channel={channel} open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </>
  );
}
