import { useMutation } from '@tanstack/react-query';
import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { sosAlertSchema, sosTitle } from '../../../../protocol/sos';
import { apiJson } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { serverMessage } from '../channels/server-message';
import { sosAlerts } from './sos-alerts-store';
import { SOS_TEXTS } from './sos-texts';

/**
 * "I'm on it" (`POST /api/sos/{id}/ack`) and "Mark resolved" (`POST /api/sos/{id}/resolve`): the
 * answer is the alert as it is now, kept at once (the socket brings it to everyone else).
 */
export function useSosActions(alertId: string) {
  const onError = (title: string) => (error: unknown) =>
    toast({ title, description: serverMessage(error), variant: 'destructive' });
  const ack = useMutation({
    mutationFn: () => apiJson(sosAlertSchema, 'POST', apiPath(API_PATHS.sosAck, { id: alertId })),
    onSuccess: (alert) => sosAlerts.receive(alert),
    onError: onError('Could not answer'),
  });
  const resolve = useMutation({
    mutationFn: () =>
      apiJson(sosAlertSchema, 'POST', apiPath(API_PATHS.sosResolve, { id: alertId })),
    onSuccess: (alert) => {
      if (sosAlerts.receive(alert) === 'resolved')
        toast({
          title: SOS_TEXTS.resolvedToast(sosTitle(alert.sender.name), alert.resolvedBy?.name ?? ''),
        });
    },
    onError: onError('Could not resolve'),
  });
  return { ack, resolve };
}
