import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { ActiveCallOverlay } from './ActiveCallOverlay';
import type { CallInfo } from './call-state';
import { MinimizedCallPill } from './MinimizedCallPill';

const call: CallInfo = {
  callId: 'c1',
  roomName: 'call-c1',
  contactId: 'ben',
  contactName: 'Ben Bartholomew-Fitzgerald',
  contactProfileImageUrl: null,
  isInitiator: true,
};
const noop = () => undefined;

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the call screen', () => {
  it('says only "Calling…" while the other side rings', () => {
    render(
      <ActiveCallOverlay
        state={{ phase: 'outgoing', call, minimized: false, media: 'connecting' }}
        muted={false}
        onToggleMute={noop}
        onEnd={noop}
        onMinimize={noop}
      />,
    );
    expect(screen.getByRole('status').textContent).toBe('Calling…');
    expect(screen.queryByText('Connecting voice...')).toBeNull();
    expect(screen.queryByText(/^\d+:\d\d$/)).toBeNull();
  });

  it('once answered, shows the running time and how the voice is doing', () => {
    vi.useFakeTimers({ now: 100_000 });
    render(
      <ActiveCallOverlay
        state={{ phase: 'active', call, minimized: false, media: 'connecting', startedAt: 35_000 }}
        muted={false}
        onToggleMute={noop}
        onEnd={noop}
        onMinimize={noop}
      />,
    );
    expect(screen.getByText('1:05')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Connecting voice...');
    expect(screen.queryByText('Calling…')).toBeNull();
  });
});

describe('the minimized call', () => {
  it("shows the call's running time beside On call, and restores or ends", () => {
    vi.useFakeTimers({ now: 200_000 });
    const onRestore = vi.fn();
    const onEnd = vi.fn();
    render(
      <MinimizedCallPill
        state={{ phase: 'active', call, minimized: true, media: 'connected', startedAt: 77_000 }}
        onRestore={onRestore}
        onEnd={onEnd}
      />,
    );
    const restore = screen.getByRole('button', { name: `Restore call with ${call.contactName}` });
    expect(within(restore).getByText('On call')).toBeTruthy();
    expect(within(restore).getByText('2:03')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(within(restore).getByText('2:05')).toBeTruthy();
    fireEvent.click(restore);
    fireEvent.click(screen.getByRole('button', { name: 'End call' }));
    expect(onRestore).toHaveBeenCalledOnce();
    expect(onEnd).toHaveBeenCalledOnce();
  });

  it('says Calling… while it still rings', () => {
    render(
      <MinimizedCallPill
        state={{ phase: 'outgoing', call, minimized: true, media: 'connecting' }}
        onRestore={noop}
        onEnd={noop}
      />,
    );
    expect(screen.getByText('Calling…')).toBeTruthy();
    expect(screen.queryByText('On call')).toBeNull();
  });

  it('keeps room at the foot of the page while it shows, and gives it back after', () => {
    const { unmount } = render(
      <MinimizedCallPill
        state={{ phase: 'outgoing', call, minimized: true, media: 'connecting' }}
        onRestore={noop}
        onEnd={noop}
      />,
    );
    expect(document.body.hasAttribute('data-call-minimized')).toBe(true);
    unmount();
    expect(document.body.hasAttribute('data-call-minimized')).toBe(false);
  });
});
