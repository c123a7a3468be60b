import { navigate } from 'wouter/use-browser-location';
import { API_PATHS, apiPath } from '../../../../protocol/api-paths';
import { sosAlertSchema, sosArmResponseSchema } from '../../../../protocol/sos';
import { apiJson, apiRequest } from '../../lib/query-client';
import { toast } from '../../ui/toast-store';
import { setCurrentChannelId } from '../channels/current-channel';
import { serverMessage } from '../channels/server-message';
import { presenceStore } from '../presence/presence-store';
import { microphoneOverride } from '../voice/microphone-override';
import { voiceRoom } from '../voice/voice-room';
import { sosAlerts } from './sos-alerts-store';
import { armSos } from './sos-arming';
import { SosSender } from './sos-sender';

/** The tab's one SOS sender, on the real presence, voice room, geolocation and API. */
export const sosSending = new SosSender({
  presence: presenceStore,
  showChannel: (channelId) => {
    setCurrentChannelId(channelId);
    if (window.location.pathname !== '/') navigate('/');
  },
  microphone: microphoneOverride,
  arm: (channelId) =>
    armSos(
      {
        room: voiceRoom,
        channelId: () => presenceStore.state.channelId,
        api: {
          arm: (id) => apiJson(sosArmResponseSchema, 'POST', API_PATHS.sosArm, { channelId: id }),
          disarm: async (id) => {
            await apiRequest('POST', API_PATHS.sosDisarm, { channelId: id });
          },
        },
      },
      channelId,
    ),
  store: sosAlerts,
  api: {
    raise: (channelId) => apiJson(sosAlertSchema, 'POST', API_PATHS.sos, { channelId }),
    locate: async (id, location) => {
      await apiRequest('PUT', apiPath(API_PATHS.sosLocation, { id }), location);
    },
  },
  geolocation: typeof navigator !== 'undefined' ? navigator.geolocation : undefined,
  toast,
  messageOf: serverMessage,
});
