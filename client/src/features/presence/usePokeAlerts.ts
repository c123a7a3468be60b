import { pokeMessageSchema } from '../../../../protocol/sockets';
import { toast } from '../../ui/toast-store';
import { useSocketMessage } from '../realtime/useSocket';
import { playPokeSound, vibrateForPoke } from './poke-alert';

/** Someone poked you (DESIGN §3 "Poke"): a toast with their name, a short beep and a buzz. */
export function usePokeAlerts(): void {
  useSocketMessage('poke', (message) => {
    const parsed = pokeMessageSchema.safeParse(message);
    if (!parsed.success) {
      console.error('Malformed poke ignored', message);
      return;
    }
    toast({ title: 'Poke!', description: `${parsed.data.from.name} poked you` });
    vibrateForPoke();
    // A blocked or missing audio output only loses the beep; the toast already told the user.
    playPokeSound().catch((error: unknown) => console.warn('Poke sound not played', error));
  });
}
