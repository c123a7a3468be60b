import type { QueryClient } from '@tanstack/react-query';
import { API_PATHS } from '../../../../protocol/api-paths';
import { sosAlertsResponseSchema, sosTitle, type SosAlert } from '../../../../protocol/sos';
import { parsedQuery } from '../../lib/query-client';
import type { ChannelSocket } from '../realtime/channel-socket';
import type { SosAlertsStore } from './sos-alerts-store';
import { SOS_TEXTS } from './sos-texts';
import { sosVoices } from './sos-voices';

export const SOS_ALERTS_KEY = [API_PATHS.sos] as const;

export type SosRuntimeDeps = {
  socket: Pick<ChannelSocket, 'on' | 'onState' | 'state'>;
  queryClient: QueryClient;
  userId: string;
  /** The channel whose voice the user hears (the presence's). */
  channel: { get(): number | null; subscribe(listener: () => void): () => void };
  store: SosAlertsStore;
  /** Whose voice plays at full volume now (the audio policy). */
  setSosUserIds(ids: Iterable<string>): void;
  toast(toast: { title: string; description?: string }): void;
  /** The alarm tone and a buzz, once per new alert from someone else. */
  alarm(): void;
  now?: () => number;
};

/**
 * SOS on every screen, without React (decision 050): `sos_alert` messages and `GET /api/sos` (on
 * every connect of the socket, so an alert raised while this tab was away shows) fill the alert
 * store; a new alert from someone else sounds the alarm; a resolved one says who resolved it; and
 * the voice of an SOS on the air in the channel the user hears plays at full volume. Returns stop.
 */
export function startSosRuntime(deps: SosRuntimeDeps): () => void {
  const { socket, store, queryClient } = deps;
  const now = deps.now ?? Date.now;
  const sosHolders = new Map<number, string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const syncVoices = () => {
    clearTimeout(timer);
    const { userIds, nextChangeAt } = sosVoices(
      deps.channel.get(),
      sosHolders,
      store.getView().alerts,
      now(),
    );
    deps.setSosUserIds(userIds);
    if (nextChangeAt !== null) timer = setTimeout(syncVoices, nextChangeAt - now() + 50);
  };

  const alarmFor = (alert: SosAlert) => {
    if (alert.sender.id !== deps.userId) deps.alarm();
  };

  const load = () => {
    queryClient
      .fetchQuery({
        queryKey: SOS_ALERTS_KEY,
        queryFn: parsedQuery(sosAlertsResponseSchema),
        staleTime: 0,
      })
      .then((alerts) => {
        if (stopped) return;
        store.replaceAll(alerts).forEach(alarmFor);
        syncVoices();
      })
      .catch((error: unknown) => console.warn('sos: could not load the open alerts', error));
  };

  const offs = [
    socket.on('sos_alert', ({ alert }) => {
      const change = store.receive(alert);
      if (change === 'new') alarmFor(alert);
      if (change === 'resolved')
        deps.toast({
          title: SOS_TEXTS.resolvedToast(sosTitle(alert.sender.name), alert.resolvedBy?.name ?? ''),
        });
      syncVoices();
    }),
    socket.on('floor_state', ({ channelId, holder, sos }) => {
      if (sos === true && holder) sosHolders.set(channelId, holder.id);
      else sosHolders.delete(channelId);
      syncVoices();
    }),
    socket.onState((state) => {
      if (state === 'connected') load();
    }),
    deps.channel.subscribe(syncVoices),
  ];
  if (socket.state === 'connected') load();
  syncVoices();

  return () => {
    stopped = true;
    clearTimeout(timer);
    offs.forEach((off) => off());
    deps.setSosUserIds([]);
    store.clear();
  };
}
