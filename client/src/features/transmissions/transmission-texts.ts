/** The texts of kept transmissions. */
export const TRANSMISSION_TEXTS = {
  title: 'Transmissions',
  description: (channel: string) => `What was said in ${channel}, oldest first.`,
  button: 'Transmissions',
  missed: (n: number) => `${n} missed`,
  playAll: 'Play all',
  stop: 'Stop',
  pause: 'Pause',
  resume: 'Resume',
  speed: 'Playback speed',
  player: 'Transmission player',
  listLabel: 'Kept transmissions',
  loading: 'Loading…',
  loadingList: 'Loading transmissions…',
  failed: 'Could not play this transmission',
  missedBadge: 'Missed',
  nowPlaying: (n: number, of: number, name: string, time: string) =>
    `Playing ${n} of ${of}: ${name}, ${time}`,
  playOne: (name: string, time: string) => `Play ${name} at ${time}`,
  empty: (hours: number) => `Nothing kept yet. What is said here is kept for ${hours} hours.`,
  notKept: 'This channel does not keep transmissions.',
  keep: 'Keep transmissions for replay',
  keepHelp: 'Members who were away can play what was said. Turning this off deletes what was kept.',
} as const;

const startOfDay = (date: Date) =>
  new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();

/**
 * When a transmission was said, with its day: "Today, 5:10:41 PM", "Yesterday, 9:02:13 AM",
 * "Nov 24, 8:00:00 PM" (the year too when it is not this one), in the reader's own locale.
 */
export function formatWhen(iso: string, now = new Date(), locale?: string): string {
  const at = new Date(iso);
  const time = at.toLocaleTimeString(locale, {
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
  });
  const days = Math.round((startOfDay(now) - startOfDay(at)) / 86_400_000);
  const day =
    days === 0
      ? 'Today'
      : days === 1
        ? 'Yesterday'
        : at.toLocaleDateString(locale, {
            month: 'short',
            day: 'numeric',
            ...(at.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
          });
  return `${day}, ${time}`;
}

/** m:ss */
export function formatDuration(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
