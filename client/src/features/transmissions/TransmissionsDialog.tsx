import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Pause, Play, Square } from 'lucide-react';
import type { Channel } from '../../../../protocol/channels';
import { volumeToGain } from '../../../../protocol/voice-preferences';
import { PLAYBACK_RATES, type Transmission } from '../../../../protocol/transmissions';
import { cn } from '../../lib/cn';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../ui/Dialog';
import { Spinner } from '../../ui/Spinner';
import { audioPolicyStore } from '../voice/audio-policy-store';
import {
  transmissionAudioUrl,
  useMarkTransmissionsSeen,
  useTransmissions,
} from './transmission-queries';
import { playNow } from './play-request';
import { TransmissionPlayer, type PlayerSnapshot } from './transmission-player';
import { formatDuration, formatWhen, TRANSMISSION_TEXTS } from './transmission-texts';

export type TransmissionsDialogProps = {
  channel: Channel;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/** What a walkie-talkie channel kept: the list (missed ones marked) and a player for one or all. */
export function TransmissionsDialog({ channel, open, onOpenChange }: TransmissionsDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{TRANSMISSION_TEXTS.title}</DialogTitle>
          <DialogDescription>{TRANSMISSION_TEXTS.description(channel.name)}</DialogDescription>
        </DialogHeader>
        {open ? <TransmissionsPanel channel={channel} /> : null}
      </DialogContent>
    </Dialog>
  );
}

async function loadAudio(channelId: number, id: string, signal: AbortSignal): Promise<Blob> {
  const res = await fetch(transmissionAudioUrl(channelId, id), { credentials: 'include', signal });
  if (!res.ok) throw new Error(`GET transmission audio: ${res.status}`);
  return res.blob();
}

function usePlayer(channelId: number) {
  const audioRef = useRef<HTMLAudioElement>(null);
  const [player, setPlayer] = useState<TransmissionPlayer | null>(null);
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    const created = new TransmissionPlayer(audio, {
      load: (id, signal) => loadAudio(channelId, id, signal),
      gainOf: (speakerId) => {
        const volume = audioPolicyStore.getPolicy().memberVolumes[speakerId];
        return volume === undefined ? 1 : volumeToGain(volume);
      },
    });
    setPlayer(created);
    return () => created.dispose();
  }, [channelId]);
  return { audioRef, player };
}

const IDLE_SNAPSHOT: PlayerSnapshot = { queue: [], index: 0, status: 'idle', rate: 1 };
const noSubscription = () => () => undefined;

function TransmissionsPanel({ channel }: { channel: Channel }) {
  const list = useTransmissions(channel.id, true);
  const markSeen = useMarkTransmissionsSeen(channel.id);
  const { audioRef, player } = usePlayer(channel.id);
  const snapshot = useSyncExternalStore(
    player?.subscribe ?? noSubscription,
    player?.getSnapshot ?? (() => IDLE_SNAPSHOT),
  );
  const missed = list.data?.missed ?? 0;
  const { mutate: markSeenNow } = markSeen;
  // Opening the list is seeing it: the count starts again from zero (the badges stay until closed).
  // Once per opening: a failed attempt is not retried in a loop (the count stays, as it should).
  const marked = useRef(false);
  useEffect(() => {
    if (missed === 0 || marked.current) return;
    marked.current = true;
    markSeenNow();
  }, [missed, markSeenNow]);

  const items = list.data?.transmissions ?? [];
  // A tapped notification's transmission plays once the list and the player are ready.
  const loaded = list.data?.transmissions;
  useEffect(() => {
    if (!player || !loaded) return;
    const asked = playNow(channel.id);
    const wanted = asked && loaded.find((t) => t.id === asked.transmissionId);
    if (wanted) player.play([{ id: wanted.id, speakerId: wanted.speaker.id }]);
  }, [player, loaded, channel.id]);
  const current = snapshot.status === 'idle' ? undefined : snapshot.queue[snapshot.index];
  const currentItem = current ? items.find((t) => t.id === current.id) : undefined;
  const queue = (from: Transmission[]) => from.map((t) => ({ id: t.id, speakerId: t.speaker.id }));

  const now = new Date();
  const when = (t: Transmission) => formatWhen(t.startedAt, now);

  return (
    <div className="grid gap-4">
      <div>
        <div className="flex flex-wrap items-center gap-2">
          <Button
            size="sm"
            onClick={() => player?.play(queue(items))}
            disabled={!player || items.length === 0}
          >
            <Play aria-hidden="true" />
            {TRANSMISSION_TEXTS.playAll}
          </Button>
          {snapshot.status === 'playing' ? (
            <Button size="sm" variant="outline" onClick={() => player?.pause()}>
              <Pause aria-hidden="true" />
              {TRANSMISSION_TEXTS.pause}
            </Button>
          ) : snapshot.status === 'paused' ? (
            <Button size="sm" variant="outline" onClick={() => player?.resume()}>
              <Play aria-hidden="true" />
              {TRANSMISSION_TEXTS.resume}
            </Button>
          ) : null}
          {snapshot.status !== 'idle' ? (
            <Button size="sm" variant="outline" onClick={() => player?.stop()}>
              <Square aria-hidden="true" />
              {TRANSMISSION_TEXTS.stop}
            </Button>
          ) : null}
          <div
            role="group"
            aria-label={TRANSMISSION_TEXTS.speed}
            className="ml-auto inline-flex rounded-md border border-border p-0.5"
          >
            {PLAYBACK_RATES.map((rate) => (
              <button
                key={rate}
                type="button"
                aria-pressed={snapshot.rate === rate}
                onClick={() => player?.setRate(rate)}
                className={cn(
                  'min-h-8 min-w-11 rounded px-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-ring',
                  snapshot.rate === rate
                    ? 'bg-primary text-primary-foreground'
                    : 'text-foreground hover:bg-muted',
                )}
              >
                {rate}×
              </button>
            ))}
          </div>
        </div>
        {/* Takes no room while nothing plays (no blank band); always there, so it is announced. */}
        <p
          role="status"
          aria-live="polite"
          className="mt-2 text-sm text-muted-foreground empty:mt-0"
        >
          {snapshot.status === 'error'
            ? TRANSMISSION_TEXTS.failed
            : snapshot.status === 'loading'
              ? TRANSMISSION_TEXTS.loading
              : currentItem
                ? TRANSMISSION_TEXTS.nowPlaying(
                    snapshot.index + 1,
                    snapshot.queue.length,
                    currentItem.speaker.name,
                    when(currentItem),
                  )
                : null}
        </p>
        {/* Plays, never shows: the buttons above are the one set of controls. */}
        <audio ref={audioRef} aria-label={TRANSMISSION_TEXTS.player} className="hidden" />
      </div>

      {list.isPending ? (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner /> {TRANSMISSION_TEXTS.loadingList}
        </p>
      ) : list.isError ? (
        <p role="alert" className="text-sm text-destructive-text">
          {list.error.message}
        </p>
      ) : items.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          {channel.keepTransmissions
            ? TRANSMISSION_TEXTS.empty(list.data.retentionHours)
            : TRANSMISSION_TEXTS.notKept}
        </p>
      ) : (
        <ol className="grid gap-2" aria-label={TRANSMISSION_TEXTS.listLabel}>
          {items.map((t) => {
            const playing = current?.id === t.id;
            return (
              <li
                key={t.id}
                aria-current={playing ? 'true' : undefined}
                className={cn(
                  'flex items-center gap-3 rounded-lg border border-border p-2.5',
                  playing && 'border-primary bg-primary-soft',
                )}
              >
                <Button
                  size="icon"
                  variant={playing ? 'default' : 'outline'}
                  aria-label={TRANSMISSION_TEXTS.playOne(t.speaker.name, when(t))}
                  onClick={() => player?.play(queue([t]))}
                  disabled={!player}
                >
                  <Play aria-hidden="true" />
                </Button>
                <div className="grid min-w-0 flex-1">
                  {/* Whole names, wrapped: two people may share a first name and a long surname. */}
                  <span className="font-medium [overflow-wrap:anywhere]">{t.speaker.name}</span>
                  <span className="text-xs text-muted-foreground">
                    <time dateTime={t.startedAt}>{when(t)}</time> · {formatDuration(t.durationMs)}
                  </span>
                </div>
                {t.missed ? (
                  <Badge variant="warning">{TRANSMISSION_TEXTS.missedBadge}</Badge>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
