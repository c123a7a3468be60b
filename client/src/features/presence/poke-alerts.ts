import type { ChannelSocket } from '../realtime/channel-socket';
import type { Toast } from './online-state';

export type PokeAlert = {
  toast: (toast: Toast) => void;
  sound: () => Promise<void>;
  vibrate: () => void;
};

/** Someone poked you (DESIGN §3 "Poke"): a toast with their name, a short beep and a buzz. */
export function alertOnPokes(socket: Pick<ChannelSocket, 'on'>, alert: PokeAlert): () => void {
  return socket.on('poke', ({ from }) => {
    alert.toast({ title: 'Poke!', description: `${from.name} poked you` });
    alert.vibrate();
    // A blocked or missing audio output only loses the beep; the toast already told the user.
    alert.sound().catch((error: unknown) => console.warn('Poke sound not played', error));
  });
}
