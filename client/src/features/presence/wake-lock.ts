/** The part of `navigator.wakeLock` used here, so tests can stand in for the browser. */
export type WakeLockApi = {
  request(type: 'screen'): Promise<Pick<WakeLockSentinel, 'released' | 'release'>>;
};

type Sentinel = Awaited<ReturnType<WakeLockApi['request']>>;

/**
 * Keeps the screen awake while wanted (spec §4 "Wake lock"). The browser drops the lock whenever
 * the page is hidden, so it is asked for again when the page is visible. Failures (unsupported,
 * low battery, hidden page) are logged: the app works without it, the screen may just sleep.
 */
export class WakeLockKeeper {
  private wanted = false;
  private sentinel: Sentinel | null = null;
  private pending = false;

  constructor(
    private readonly api: WakeLockApi | undefined,
    private readonly isVisible: () => boolean,
  ) {}

  setWanted(wanted: boolean): void {
    this.wanted = wanted;
    if (wanted) this.acquire();
    else this.release();
  }

  /** Call when the page becomes visible again. */
  pageShown(): void {
    if (this.wanted) this.acquire();
  }

  private acquire(): void {
    if (!this.api || this.pending || !this.isVisible()) return;
    if (this.sentinel && !this.sentinel.released) return;
    this.pending = true;
    this.api
      .request('screen')
      .then((sentinel) => {
        this.sentinel = sentinel;
        // Released while the request was in flight: let go of what just arrived.
        if (!this.wanted) this.release();
      })
      .catch((error: unknown) => console.warn('Wake lock not acquired', error))
      .finally(() => {
        this.pending = false;
      });
  }

  private release(): void {
    const sentinel = this.sentinel;
    this.sentinel = null;
    if (!sentinel || sentinel.released) return;
    sentinel.release().catch((error: unknown) => console.warn('Wake lock not released', error));
  }
}
