import type { ToastHandle } from '../../ui/toast-store';
import { TOASTS, type Toast } from '../presence/online-state';
import type { RoomPhase } from '../voice/room-connection/room-machine';

export type RoomPhaseSource = {
  getView(): { phase: RoomPhase };
  subscribe(listener: () => void): () => void;
};

/**
 * Spec §4 toasts "Online / Connecting to voice..." as the user goes online. Once the voice room is
 * connected that is no longer true (the top bar says Voice Ready), so the toast closes right then
 * instead of standing its full 5 s beside "Voice Ready". Returns the toast function to hand to the
 * presence runtime, and stop.
 */
export function closeConnectingToastWhenReady(
  show: (toast: Toast) => ToastHandle,
  room: RoomPhaseSource,
): { toast: (toast: Toast) => void; stop: () => void } {
  let connecting: ToastHandle | null = null;
  const closeIfReady = () => {
    if (!connecting || room.getView().phase !== 'connected') return;
    connecting.dismiss();
    connecting = null;
  };
  const stop = room.subscribe(closeIfReady);
  return {
    toast: (toast) => {
      const handle = show(toast);
      // Only one toast shows at a time: a newer one has replaced the connecting one anyway.
      connecting = toast.description === TOASTS.online.description ? handle : null;
      closeIfReady();
    },
    stop,
  };
}
