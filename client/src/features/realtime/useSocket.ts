import { useSyncExternalStore } from 'react';
import { channelSocket } from './channel-socket';
import type { SocketState } from './socket-connection';

const subscribe = (onChange: () => void) => channelSocket.onState(onChange);
const snapshot = () => channelSocket.state;

/** The `/ws` state for rendering (spec §4 "Channel socket connection state"). */
export function useSocketState(): SocketState {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
