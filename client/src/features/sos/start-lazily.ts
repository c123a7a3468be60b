/**
 * Starts what `load` brings once its code has loaded, and stops it whenever asked: at once if it
 * is running, or as soon as it has loaded otherwise. Keeps a feature's runtime out of the first load.
 */
export function startLazily(load: () => Promise<() => void>): () => void {
  let stopped = false;
  let stop: (() => void) | null = null;
  load().then(
    (started) => {
      if (stopped) started();
      else stop = started;
    },
    (error: unknown) => console.error('Could not start a feature', error),
  );
  return () => {
    stopped = true;
    stop?.();
    stop = null;
  };
}
