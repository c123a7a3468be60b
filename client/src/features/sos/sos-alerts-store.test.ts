// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { SosAlertsStore } from './sos-alerts-store';
import { sosAlert } from './sos-test-data';
import { readSosTap } from './useSosTap';

const older = sosAlert({
  id: '1b6c3f0e-1d1e-4a43-9a3e-6d2f0c1b2a3d',
  raisedAt: '2026-11-27T11:00:00.000Z',
});
const newer = sosAlert();

describe('the SOS alerts', () => {
  it('shows the newest first; a new one comes back full screen', () => {
    const store = new SosAlertsStore();
    expect(store.receive(older)).toBe('new');
    store.setMinimised(true);
    expect(store.getView().minimised).toBe(true);
    expect(store.receive(newer)).toBe('new');
    expect(store.getView()).toMatchObject({ alerts: [newer, older], minimised: false });
  });

  it('a change stays minimised; a tap brings its alert to the front', () => {
    const store = new SosAlertsStore();
    store.receive(newer);
    store.receive(older);
    store.setMinimised(true);
    expect(store.receive({ ...older, acks: [] })).toBe('changed');
    expect(store.getView().minimised).toBe(true);
    store.bringToFront(older.id);
    expect(store.getView().alerts.map((alert) => alert.id)).toEqual([older.id, newer.id]);
    expect(store.getView().minimised).toBe(false);
  });

  it('a resolved alert leaves; an unknown resolved one is ignored; the server list replaces', () => {
    const store = new SosAlertsStore();
    store.receive(newer);
    const resolved = { ...newer, resolvedAt: '2026-11-27T12:05:00.000Z' };
    expect(store.receive(resolved)).toBe('resolved');
    expect(store.receive(resolved)).toBe('ignored');
    expect(store.replaceAll([older])).toEqual([older]);
    expect(store.replaceAll([older])).toEqual([]);
    expect(store.getView().alerts).toEqual([older]);
  });

  it('reads the alert of a tapped notification', () => {
    expect(readSosTap('?sos=abc')).toBe('abc');
    expect(readSosTap('?channel=7')).toBeNull();
  });
});
