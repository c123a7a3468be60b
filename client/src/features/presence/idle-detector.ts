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

/** How long before idling the user is warned (not in the spec, which only says when idling starts). */
export const IDLE_WARNING_MS = 10_000;

export type IdleDetectorOptions = {
  /**
   * Told when idling is near, with the time (ms since the epoch) it will start, and told `null`
   * when that warning no longer holds (input came, the page hid, or idling started).
   */
  onWarning?: (idleAt: number | null) => void;
  /** How long before idling `onWarning` speaks; `IDLE_WARNING_MS` by default. */
  warningMs?: number;
  now?: () => number;
};

/**
 * Spec §4 "Idle detection" without the DOM: feed it input and visibility, it reports idle changes,
 * and (optionally) a warning shortly before idling after a timeout. The timeout itself stays the
 * spec's: the warning only speaks during its last `warningMs`. A hidden page is idle at once, with
 * no warning. Input only stamps a time; one timer checks the stamp when it fires, so a stream of
 * mouse moves costs no timer churn.
 */
export class IdleDetector {
  private lastInputAt: number;
  private idle = false;
  private hidden = false;
  private stopped = false;
  private warnedFor: number | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly now: () => number;
  private readonly warningMs: number;
  private readonly onWarning: ((idleAt: number | null) => void) | undefined;

  constructor(
    private readonly timeoutMs: number,
    private readonly onChange: (idle: boolean) => void,
    options: IdleDetectorOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.onWarning = options.onWarning;
    this.warningMs = options.onWarning ? (options.warningMs ?? IDLE_WARNING_MS) : 0;
    this.lastInputAt = this.now();
    this.schedule(this.nextCheckIn(this.lastInputAt));
  }

  /** Mouse, key or touch input. */
  input(): void {
    if (this.stopped) return;
    this.lastInputAt = this.now();
    this.warn(null);
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

  /** Until the warning is due, or (once it is) until idling. */
  private nextCheckIn(now: number): number {
    const { waitMs } = idleCheck(now, this.lastInputAt, this.timeoutMs);
    return waitMs > this.warningMs ? waitMs - this.warningMs : waitMs;
  }

  private check = (): void => {
    this.timer = undefined;
    const now = this.now();
    const { idle, waitMs } = idleCheck(now, this.lastInputAt, this.timeoutMs);
    if (idle) return this.set(true);
    if (waitMs <= this.warningMs) this.warn(this.lastInputAt + this.timeoutMs);
    this.schedule(this.nextCheckIn(now));
  };

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(this.check, ms);
  }

  private warn(idleAt: number | null): void {
    if (idleAt === this.warnedFor) return;
    this.warnedFor = idleAt;
    this.onWarning?.(idleAt);
  }

  private set(idle: boolean): void {
    // While active a timer is always pending; while idle none is needed until input returns.
    if (!idle && this.timer === undefined) this.schedule(this.nextCheckIn(this.now()));
    if (idle) {
      this.pause();
      this.warn(null);
    }
    if (idle === this.idle) return;
    this.idle = idle;
    this.onChange(idle);
  }
}
