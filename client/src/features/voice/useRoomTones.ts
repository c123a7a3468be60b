import { useEffect, useRef } from 'react';
import { playTone, toneForChange } from './tones';

/** Spec §4 "Tones": rising when the channel's room connects, falling when it is left. */
export function useRoomTones(connected: boolean): void {
  const was = useRef(connected);
  useEffect(() => {
    const tone = toneForChange(was.current, connected);
    was.current = connected;
    if (tone) playTone(tone);
  }, [connected]);
}
