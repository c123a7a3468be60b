import { useSyncExternalStore } from 'react';
import type { SosAlert } from '../../../../protocol/sos';

/** What a received alert changed: a new one, one already shown, one resolved, or nothing. */
export type AlertChange = 'new' | 'changed' | 'resolved' | 'ignored';

export type SosAlertsView = {
  /** Unresolved alerts, newest first; the one in front first when a tap asked for it. */
  alerts: readonly SosAlert[];
  /** The full-screen alert is folded into its red banner. */
  minimised: boolean;
};

const newestFirst = (a: SosAlert, b: SosAlert) => Date.parse(b.raisedAt) - Date.parse(a.raisedAt);

/**
 * The tab's unresolved SOS alerts, kept by id from `sos_alert` messages and `GET /api/sos`
 * (each message carries the whole alert: the latest wins), with whether the screen is minimised
 * and which alert a notification's tap asked to see. A module store: the socket runtime writes it
 * and the alert screen, wherever it is mounted, reads it.
 */
export class SosAlertsStore {
  private readonly byId = new Map<string, SosAlert>();
  private front: string | null = null;
  private view: SosAlertsView = { alerts: [], minimised: false };
  private readonly listeners = new Set<() => void>();

  getView = (): SosAlertsView => this.view;

  get(id: string): SosAlert | undefined {
    return this.byId.get(id);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** One alert as the server sent it. A resolved one leaves; an unknown resolved one is ignored. */
  receive(alert: SosAlert): AlertChange {
    const known = this.byId.has(alert.id);
    if (alert.resolvedAt !== null) {
      if (!known) return 'ignored';
      this.byId.delete(alert.id);
      this.publish();
      return 'resolved';
    }
    this.byId.set(alert.id, alert);
    // A new alert always comes to the front, full screen.
    this.publish(known ? undefined : false);
    return known ? 'changed' : 'new';
  }

  /** The server's list of unresolved alerts: the ones not in it were resolved meanwhile. */
  replaceAll(alerts: readonly SosAlert[]): SosAlert[] {
    const fresh = alerts.filter((alert) => alert.resolvedAt === null && !this.byId.has(alert.id));
    this.byId.clear();
    for (const alert of alerts) if (alert.resolvedAt === null) this.byId.set(alert.id, alert);
    this.publish(fresh.length > 0 ? false : undefined);
    return fresh;
  }

  /** Shows this alert first and full screen (a notification's tap). */
  bringToFront(id: string): void {
    this.front = id;
    this.publish(false);
  }

  setMinimised(minimised: boolean): void {
    this.publish(minimised);
  }

  clear(): void {
    this.byId.clear();
    this.front = null;
    this.publish(false);
  }

  private publish(minimised: boolean = this.view.minimised): void {
    const alerts = [...this.byId.values()].sort(newestFirst);
    const front = alerts.findIndex((alert) => alert.id === this.front);
    if (front > 0) alerts.unshift(...alerts.splice(front, 1));
    this.view = { alerts, minimised: alerts.length > 0 && minimised };
    for (const listener of [...this.listeners]) listener();
  }
}

export const sosAlerts = new SosAlertsStore();

export function useSosAlerts(store: SosAlertsStore = sosAlerts): SosAlertsView {
  return useSyncExternalStore(store.subscribe, store.getView, store.getView);
}
