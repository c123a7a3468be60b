import type { SubscriptionTier } from '../../../../protocol/user';

const MINUTE_MS = 60_000;

/** Spec §9: the idle hook's own default, used when no tier is given. */
export const DEFAULT_IDLE_TIMEOUT_MS = 3 * MINUTE_MS;

/** Spec §6: free, unknown or missing user 1 minute; member 2; admin and superadmin 3. */
export function idleTimeoutFor(tier: SubscriptionTier | null | undefined): number {
  switch (tier) {
    case 'member':
      return 2 * MINUTE_MS;
    case 'admin':
    case 'superadmin':
      return 3 * MINUTE_MS;
    default:
      return MINUTE_MS;
  }
}

/** Idle once `timeoutMs` passed since the last input; otherwise how long until it would be. */
export function idleCheck(
  now: number,
  lastInputAt: number,
  timeoutMs: number,
): { idle: boolean; waitMs: number } {
  const waitMs = lastInputAt + timeoutMs - now;
  return waitMs <= 0 ? { idle: true, waitMs: 0 } : { idle: false, waitMs };
}

/**
 * Spec §4 "Idle detection" without the DOM: feed it input and visibility, it reports idle changes.
 * Input only stamps a time; one timer checks the stamp when it fires, so a stream of mouse moves
 * costs no timer churn.
 */
export class IdleDetector {
  private lastInputAt: number;
  private idle = false;
  private hidden = false;
  private stopped = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly timeoutMs: number,
    private readonly onChange: (idle: boolean) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.lastInputAt = now();
    this.schedule(timeoutMs);
  }

  /** Mouse, key or touch input. */
  input(): void {
    if (this.stopped) return;
    this.lastInputAt = this.now();
    if (!this.hidden) this.set(false);
  }

  /** The page was hidden (idle at once) or shown again (active at once). */
  visibility(hidden: boolean): void {
    if (this.stopped) return;
    this.hidden = hidden;
    if (hidden) return this.set(true);
    this.lastInputAt = this.now();
    this.set(false);
  }

  /** Stops for good: no more reports. */
  stop(): void {
    this.stopped = true;
    this.pause();
  }

  private pause(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private check = (): void => {
    this.timer = undefined;
    const { idle, waitMs } = idleCheck(this.now(), this.lastInputAt, this.timeoutMs);
    if (idle) this.set(true);
    else this.schedule(waitMs);
  };

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(this.check, ms);
  }

  private set(idle: boolean): void {
    // While active a timer is always pending; while idle none is needed until input returns.
    if (!idle && this.timer === undefined) this.schedule(this.timeoutMs);
    if (idle) this.pause();
    if (idle === this.idle) return;
    this.idle = idle;
    this.onChange(idle);
  }
}
