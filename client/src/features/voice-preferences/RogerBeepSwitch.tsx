import { useId } from 'react';
import { useRogerBeep } from './useVoicePreferences';

/**
 * Settings, Talk mode card: the opt-in roger beep, kept on the server so it follows the
 * user to their other devices.
 */
export function RogerBeepSwitch() {
  const { rogerBeep, isLoading, setRogerBeep } = useRogerBeep();
  const id = useId();
  return (
    <div className="mt-4 flex items-start gap-3 rounded-lg border border-border p-3 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring">
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={rogerBeep}
        disabled={isLoading}
        onChange={(event) => setRogerBeep(event.target.checked)}
        aria-describedby={`${id}-help`}
        className="mt-1 accent-[var(--primary)]"
      />
      <label htmlFor={id} className="cursor-pointer">
        <span className="block font-medium">Roger beep</span>
        <span id={`${id}-help`} className="block text-sm text-muted-foreground">
          A short beep when you let go in Hold to talk, so you know your message has ended.
        </span>
      </label>
    </div>
  );
}
