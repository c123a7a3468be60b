import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { callHistoryResponseSchema } from '../../../../protocol/calls';
import { parsedQuery } from '../../lib/query-client';
import { useLocation, useSearch } from 'wouter';
import { toast } from '../../ui/toast-store';
import { CALL_HISTORY_QUERY_KEY } from '../calls/useCallHistory';
import { useCallView } from '../calls/useCallView';
import { setCurrentChannelId } from '../channels/current-channel';
import { requestPlay } from '../transmissions/play-request';
import { callTapOutcome, missedCallText, readTapTarget, withoutTapTarget } from './push-tap';

/**
 * The main screen acts on a notification's tap target (`?call=`, `?channel=`, `&play=`): the
 * ringing call with Accept/Decline (or "Missed call from <name>"), the channel, the transmission.
 * The parameters go once acted on, so a reload does not act again.
 */
export function usePushTap(): void {
  const search = useSearch();
  const [path, navigate] = useLocation();
  const target = readTapTarget(search);
  const view = useCallView();
  const waitingForCall = target?.kind === 'call';
  // Only a call's tap needs the history (did it stop ringing, and who called).
  const history = useQuery({
    queryKey: CALL_HISTORY_QUERY_KEY,
    queryFn: parsedQuery(callHistoryResponseSchema),
    enabled: waitingForCall,
  });
  const historyData = waitingForCall ? history.data : undefined;
  const { refetch } = history;
  const done = () => navigate(`${path}${withoutTapTarget(search)}`, { replace: true });

  const channelTarget = target?.kind === 'channel' ? target : null;
  useEffect(() => {
    if (!channelTarget) return;
    setCurrentChannelId(channelTarget.channelId);
    if (channelTarget.play) requestPlay({ channelId: channelTarget.channelId, transmissionId: channelTarget.play });
    done();
    // `done` changes with every render; the target is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [channelTarget?.channelId, channelTarget?.play]);

  const callId = target?.kind === 'call' ? target.callId : null;
  const outcome = callId === null ? null : callTapOutcome(callId, view.state, historyData);
  useEffect(() => {
    if (!outcome || callId === null) return;
    if (outcome.kind === 'wait') {
      // The ring reaches this tab once its socket is up; until then, check whether it still rings.
      const check = setInterval(() => void refetch(), 3000);
      return () => clearInterval(check);
    }
    if (outcome.kind === 'missed') toast({ title: missedCallText(outcome.callerName) });
    done();
    return undefined;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [callId, outcome?.kind]);
}
