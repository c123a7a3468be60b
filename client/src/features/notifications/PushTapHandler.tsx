import { usePushTap } from './usePushTap';

/** Acts on a notification's tap target in the address (loaded only when there is one). */
export function PushTapHandler() {
  usePushTap();
  return null;
}
