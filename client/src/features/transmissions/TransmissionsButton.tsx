import { Suspense, lazy, useState, useSyncExternalStore } from 'react';
import { History } from 'lucide-react';
import type { Channel } from '../../../../protocol/channels';
import { Button } from '../../ui/Button';
import { endPlay, pendingPlay, subscribePlayRequests } from './play-request';
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
  const [openByHand, setOpen] = useState(false);
  const [usedByHand, setUsed] = useState(false);
  const missed = list.data?.missed ?? 0;
  // A tapped notification asked to play one of this channel's transmissions: the list is open
  // until its player takes the request (then it stays open by hand).
  const asked = useSyncExternalStore(subscribePlayRequests, pendingPlay)?.channelId === channel.id;
  const open = openByHand || asked;
  const used = usedByHand || asked;
  const onOpenChange = (next: boolean) => {
    setUsed(true);
    setOpen(next);
    if (!next) endPlay(channel.id);
  };
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
          <TransmissionsDialog channel={channel} open={open} onOpenChange={onOpenChange} />
        </Suspense>
      ) : null}
    </>
  );
}
