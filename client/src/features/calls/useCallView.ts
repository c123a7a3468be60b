import { useSyncExternalStore } from 'react';
import { callController } from './call-runtime';
import { isCallActive, type CallView } from './call-state';

/** The call to show (incoming, active or minimized) and the mute state, for rendering. */
export function useCallView(): CallView {
  return useSyncExternalStore(
    callController.subscribe,
    callController.getView,
    callController.getView,
  );
}

/** A one-to-one call is placed or accepted, until it ends: channel voice stays off meanwhile. */
export function useCallActive(): boolean {
  return isCallActive(useCallView().state);
}
