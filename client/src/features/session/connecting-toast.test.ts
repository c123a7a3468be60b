import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { clearToasts, toast, useToasts } from '../../ui/toast-store';
import { TOASTS } from '../presence/online-state';
import type { RoomPhase } from '../voice/room-connection/room-machine';
import { closeConnectingToastWhenReady } from './connecting-toast';

/** A voice room whose phase the test moves, as the room controller reports it. */
function room(initial: RoomPhase) {
  let phase = initial;
  const listeners = new Set<() => void>();
  return {
    getView: () => ({ phase }),
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    move(next: RoomPhase) {
      phase = next;
      listeners.forEach((listener) => listener());
    },
  };
}

const openTitles = (toasts: readonly { title?: unknown; open: boolean }[]) =>
  toasts.filter((item) => item.open).map((item) => item.title);

afterEach(() => {
  cleanup();
  act(() => clearToasts());
});

describe('closeConnectingToastWhenReady', () => {
  it('closes "Online / Connecting to voice..." as soon as the room is connected', () => {
    const voice = room('fetchingToken');
    const { toast: show, stop } = closeConnectingToastWhenReady(toast, voice);
    const { result } = renderHook(() => useToasts());
    act(() => show(TOASTS.online));
    expect(openTitles(result.current)).toEqual(['Online']);
    act(() => voice.move('connecting'));
    expect(openTitles(result.current)).toEqual(['Online']);
    act(() => voice.move('connected'));
    expect(openTitles(result.current)).toEqual([]);
    stop();
  });

  it('leaves other toasts to their own time', () => {
    const voice = room('connecting');
    const { toast: show, stop } = closeConnectingToastWhenReady(toast, voice);
    const { result } = renderHook(() => useToasts());
    act(() => show(TOASTS.selfMuted));
    act(() => voice.move('connected'));
    expect(openTitles(result.current)).toEqual(['Self Muted']);
    stop();
  });

  it('stops following the room when stopped', () => {
    const voice = room('connecting');
    const { toast: show, stop } = closeConnectingToastWhenReady(toast, voice);
    const { result } = renderHook(() => useToasts());
    act(() => show(TOASTS.online));
    stop();
    act(() => voice.move('connected'));
    expect(openTitles(result.current)).toEqual(['Online']);
  });
});
