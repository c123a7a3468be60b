import {
  SOS_COUNTDOWN_MS,
  SOS_LOCATION_INTERVAL_MS,
  SOS_LOCATION_WINDOW_MS,
  type SosAlert,
  type SosLocationBody,
} from '../../../../protocol/sos';
import type { PresenceEvent } from '../presence/presence-state';
import { isOpen, type TransmitGate } from '../presence/transmit-gate';
import type { SosAlertsStore } from './sos-alerts-store';
import type { SosArm } from './sos-arming';
import type { SosTarget } from './sos-target';
import { SOS_TEXTS } from './sos-texts';

/** What the sender sees: nothing, the countdown, the request on its way, or the open microphone. */
export type SenderView =
  | { phase: 'idle' }
  | { phase: 'countdown'; target: SosTarget; endsAt: number }
  | { phase: 'sending'; target: SosTarget }
  | { phase: 'sent'; target: SosTarget; alertId: string; micUntil: number };

export type SosSenderDeps = {
  presence: {
    readonly state: {
      online: boolean;
      idle: boolean;
      channelId: number | null;
      gate: TransmitGate;
    };
    dispatch(event: PresenceEvent): void;
  };
  /** Makes a channel the current one, and shows the main screen if another screen is open. */
  showChannel(channelId: number): void;
  microphone: { set(open: boolean): void };
  /** Arms the countdown at the voice server (decision 054); without it, nothing is armed. */
  arm?(channelId: number): SosArm;
  store: Pick<SosAlertsStore, 'receive' | 'get'>;
  api: {
    raise(channelId: number): Promise<SosAlert>;
    locate(alertId: string, location: SosLocationBody): Promise<void>;
  };
  geolocation: Pick<Geolocation, 'watchPosition' | 'clearWatch'> | undefined;
  toast(toast: { title: string; description?: string; variant?: 'destructive' }): void;
  /** The server's words in a refusal. */
  messageOf(error: unknown): string;
  now?: () => number;
};

/**
 * Sending an SOS (decision 050), without React: the countdown (Cancel sends nothing), meanwhile
 * the position is watched and the user brought into the channel's voice; then `POST /api/sos`, the
 * microphone held open for the alert's talk time whatever Mute Self says, and the position sent
 * at once and every 15 s for 5 minutes or until the alert is resolved. A failed location is tried
 * again at the next tick; a refused SOS says the server's words.
 */
export class SosSender {
  private view: SenderView = { phase: 'idle' };
  private readonly listeners = new Set<() => void>();
  private countdownTimer: ReturnType<typeof setTimeout> | undefined;
  private micTimer: ReturnType<typeof setTimeout> | undefined;
  private locationTimer: ReturnType<typeof setInterval> | undefined;
  private watchId: number | null = null;
  private position: SosLocationBody | null = null;
  private sentPosition: SosLocationBody | null = null;
  private locating: { alertId: string; until: number; failed: boolean } | null = null;
  /** The countdown's arm, until it ends. */
  private arming: SosArm | undefined;
  /** What the countdown changed, undone by Cancel. */
  private undo: { channelId: number | null; wentOnline: boolean } | null = null;
  private readonly now: () => number;

  constructor(private readonly deps: SosSenderDeps) {
    this.now = deps.now ?? Date.now;
  }

  getView = (): SenderView => this.view;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The hold was long enough: count down, and get ready to send. */
  start(target: SosTarget): void {
    if (this.view.phase === 'countdown' || this.view.phase === 'sending') return;
    this.set({ phase: 'countdown', target, endsAt: this.now() + SOS_COUNTDOWN_MS });
    this.watchPosition();
    this.joinVoice(target.id);
    this.arming = this.deps.arm?.(target.id);
    this.countdownTimer = setTimeout(() => void this.raise(target), SOS_COUNTDOWN_MS);
  }

  /** Cancel (or Escape) during the countdown: nothing is sent, and the user's voice is as it was. */
  cancel(): void {
    if (this.view.phase !== 'countdown') return;
    clearTimeout(this.countdownTimer);
    this.arming?.cancel();
    this.arming = undefined;
    if (!this.locating) this.stopWatching();
    const undo = this.undo;
    this.undo = null;
    if (undo?.wentOnline && this.deps.presence.state.online)
      this.deps.presence.dispatch({ type: 'toggle_online' });
    if (undo && undo.channelId !== null && undo.channelId !== this.deps.presence.state.channelId)
      this.deps.showChannel(undo.channelId);
    this.set({ phase: 'idle' });
  }

  /** Stops everything (sign-out). */
  stop(): void {
    clearTimeout(this.countdownTimer);
    this.arming?.cancel();
    this.arming = undefined;
    this.closeMicrophone();
    this.stopLocating();
    this.set({ phase: 'idle' });
  }

  private joinVoice(channelId: number): void {
    const { presence } = this.deps;
    const before = presence.state;
    this.undo = { channelId: before.channelId, wentOnline: false };
    if (before.channelId !== channelId) this.deps.showChannel(channelId);
    else this.undo = { channelId: null, wentOnline: false };
    if (!presence.state.online) {
      presence.dispatch({ type: 'toggle_online' });
      this.undo.wentOnline = presence.state.online;
      // ONLINE in an open channel talks at once: nothing goes out before the SOS does (a
      // cancelled countdown sends nothing); the SOS opens the microphone over the mute.
      if (isOpen(presence.state.gate)) presence.dispatch({ type: 'toggle_self_mute' });
    } else if (presence.state.idle) {
      presence.dispatch({ type: 'idle', idle: false });
    }
  }

  private async raise(target: SosTarget): Promise<void> {
    this.undo = null;
    this.set({ phase: 'sending', target });
    const armed = this.arming?.armed ?? false;
    this.arming?.settle();
    this.arming = undefined;
    // Unarmed, the microphone opens as the raise goes out, not when its answer comes back: the
    // voice server forwards nothing of it until the server has given the floor, and then the first
    // words are already on their way. Armed (decision 054), its muted publication is at the voice
    // server already and would be heard once unmuted: it opens with the answer, the floor given.
    if (!armed) this.openMicrophone(this.now() + target.sosSeconds * 1000);
    let alert: SosAlert;
    try {
      alert = await this.deps.api.raise(target.id);
    } catch (error) {
      this.closeMicrophone();
      if (!this.locating) this.stopWatching();
      this.set({ phase: 'idle' });
      this.deps.toast({
        title: SOS_TEXTS.failed,
        description: this.deps.messageOf(error),
        variant: 'destructive',
      });
      return;
    }
    this.deps.store.receive(alert);
    // The talk time on this tab's clock: the server's own clock may differ from ours.
    const talkMs = Math.max(0, alert.talkUntil - Date.parse(alert.raisedAt));
    const micUntil = this.now() + talkMs;
    this.openMicrophone(micUntil);
    this.set({ phase: 'sent', target, alertId: alert.id, micUntil });
    this.startLocating(alert);
  }

  private openMicrophone(until: number): void {
    if (this.micTimer === undefined) this.deps.microphone.set(true);
    clearTimeout(this.micTimer);
    this.micTimer = setTimeout(() => this.closeMicrophone(), Math.max(0, until - this.now()));
  }

  private closeMicrophone(): void {
    clearTimeout(this.micTimer);
    this.micTimer = undefined;
    this.deps.microphone.set(false);
    if (this.view.phase === 'sent') this.set({ phase: 'idle' });
  }

  private watchPosition(): void {
    const geo = this.deps.geolocation;
    if (!geo || this.watchId !== null) return;
    try {
      this.watchId = geo.watchPosition(
        ({ coords }) => {
          this.position = {
            latitude: coords.latitude,
            longitude: coords.longitude,
            accuracy: Math.min(coords.accuracy, 1_000_000),
          };
          // The first fix after the raise goes at once, not at the next tick.
          if (this.locating && this.sentPosition === null) this.sendLocation();
        },
        (error) => console.warn('sos: no position', error.message),
        { enableHighAccuracy: true, maximumAge: 0, timeout: 30_000 },
      );
    } catch (error) {
      console.warn('sos: geolocation unavailable', error);
    }
  }

  private stopWatching(): void {
    if (this.watchId !== null) this.deps.geolocation?.clearWatch(this.watchId);
    this.watchId = null;
  }

  private startLocating(alert: SosAlert): void {
    clearInterval(this.locationTimer);
    this.sentPosition = null;
    this.locating = {
      alertId: alert.id,
      until: this.now() + SOS_LOCATION_WINDOW_MS,
      failed: false,
    };
    this.watchPosition();
    this.sendLocation();
    this.locationTimer = setInterval(() => this.sendLocation(), SOS_LOCATION_INTERVAL_MS);
  }

  private stopLocating(): void {
    clearInterval(this.locationTimer);
    this.locationTimer = undefined;
    this.locating = null;
    this.sentPosition = null;
    this.stopWatching();
  }

  private sendLocation(): void {
    const locating = this.locating;
    if (!locating) return;
    // Resolved (it left the store) or the window is over: no more updates.
    if (this.now() > locating.until || !this.deps.store.get(locating.alertId)) {
      this.stopLocating();
      return;
    }
    const position = this.position;
    if (!position || position === this.sentPosition) return;
    this.deps.api.locate(locating.alertId, position).then(
      () => {
        if (this.locating === locating) this.sentPosition = position;
      },
      (error: unknown) => {
        // Tried again at the next tick; said once.
        if (this.locating !== locating || locating.failed) return;
        locating.failed = true;
        this.deps.toast({
          title: SOS_TEXTS.locationFailed,
          description: this.deps.messageOf(error),
          variant: 'destructive',
        });
      },
    );
  }

  private set(view: SenderView): void {
    if (view === this.view) return;
    this.view = view;
    for (const listener of [...this.listeners]) listener();
  }
}
