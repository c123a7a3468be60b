/** The texts of kept transmissions. */
export const TRANSMISSION_TEXTS = {
  title: 'Transmissions',
  description: (channel: string) => `What was said in ${channel}, oldest first.`,
  button: 'Transmissions',
  missed: (n: number) => `${n} missed`,
  playAll: 'Play all',
  stop: 'Stop',
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
  empty: (hours: number) =>
    `Nothing kept yet. What is said here is kept for ${hours} hours.`,
  notKept: 'This channel does not keep transmissions.',
  keep: 'Keep transmissions for replay',
  keepHelp: 'Members who were away can play what was said. Turning this off deletes what was kept.',
} as const;

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** m:ss */
export function formatDuration(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
