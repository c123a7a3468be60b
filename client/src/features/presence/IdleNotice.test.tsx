import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { IdleNotice, IDLE_NOTICE_CONFIRM_MS } from './IdleNotice';
import { watchIdle } from './idle-watch';
import { idleWarningStore } from './idle-warning';
import { presenceStore } from './presence-store';

const STOPPED = 'You stopped listening to save minutes — tap to listen again';

let stopWatching: () => void;

beforeEach(() => {
  vi.useFakeTimers();
  // ONLINE in channel 7 on an open socket, with the tab's real idle watch (free tier: 1 minute).
  presenceStore.dispatch({ type: 'socket', open: true });
  presenceStore.dispatch({ type: 'select_channel', channelId: 7 });
  presenceStore.dispatch({ type: 'toggle_online' });
  stopWatching = watchIdle(presenceStore, 60_000, { window, document }, idleWarningStore);
});

afterEach(() => {
  cleanup();
  stopWatching();
  presenceStore.dispatch({ type: 'detach' });
  vi.useRealTimers();
});

function advance(ms: number): void {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

describe('IdleNotice', () => {
  it('says nothing until 10 s before idling, then warns with Keep listening', () => {
    render(<IdleNotice />);
    advance(49_999);
    expect(screen.queryByText(/stop listening/)).toBeNull();
    advance(1);
    expect(screen.getByText("You'll stop listening in 10 s to save minutes")).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Keep listening' })).toBeTruthy();
  });

  it('Keep listening keeps the user listening for another full minute', () => {
    render(<IdleNotice />);
    advance(52_000);
    fireEvent.click(screen.getByRole('button', { name: 'Keep listening' }));
    expect(screen.queryByText(/stop listening/)).toBeNull();
    expect(screen.getByText('Still listening')).toBeTruthy();
    advance(IDLE_NOTICE_CONFIRM_MS);
    expect(screen.queryByText('Still listening')).toBeNull();
    // The next warning comes 50 s after the tap, and idling a minute after it.
    advance(47_999);
    expect(screen.queryByText(/stop listening/)).toBeNull();
    advance(1);
    expect(screen.getByText(/stop listening in 10 s/)).toBeTruthy();
    advance(9_999);
    expect(presenceStore.state.idle).toBe(false);
    advance(1);
    expect(presenceStore.state.idle).toBe(true);
    expect(screen.getByRole('button', { name: STOPPED })).toBeTruthy();
  });

  it('after idling says so, and one tap listens again', () => {
    render(<IdleNotice />);
    advance(60_000);
    expect(presenceStore.state.idle).toBe(true);
    expect(screen.queryByRole('button', { name: 'Keep listening' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: STOPPED }));
    expect(presenceStore.state.idle).toBe(false);
    expect(screen.queryByRole('button', { name: STOPPED })).toBeNull();
    expect(screen.getByText('Listening again')).toBeTruthy();
  });

  it('any key listens again too, as the spec has it', () => {
    render(<IdleNotice />);
    advance(60_000);
    expect(screen.getByRole('button', { name: STOPPED })).toBeTruthy();
    fireEvent.keyDown(window, { key: 'a' });
    expect(presenceStore.state.idle).toBe(false);
    expect(screen.getByText('Listening again')).toBeTruthy();
  });

  it('shows nothing while offline', () => {
    act(() => presenceStore.dispatch({ type: 'toggle_online' }));
    render(<IdleNotice />);
    advance(120_000);
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
