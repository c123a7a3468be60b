import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { clearToasts, useToasts } from '../../ui/toast-store';
import type { VoiceRoomView } from './room-connection/room-controller';
import { useVoiceRoom, type VoiceRoomInputs } from './useVoiceRoom';

/** The tab's room, replaced by a hand-driven stand-in so only the hook is under test. */
const room = vi.hoisted(() => {
  let view = {
    phase: 'idle',
    roomState: 'disconnected',
    connected: false,
    error: null,
    speakingUserIds: new Set<string>(),
  } as unknown as VoiceRoomView;
  const listeners = new Set<() => void>();
  return {
    configure: vi.fn(),
    setMicrophoneEnabled: vi.fn((_on: boolean) => Promise.resolve()),
    reportMicrophoneFailure: vi.fn(),
    getView: () => view,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(patch: Partial<VoiceRoomView>) {
      view = { ...view, ...patch };
      listeners.forEach((listener) => listener());
    },
  };
});
vi.mock('./voice-room', () => ({ voiceRoom: room }));

const inputs = (patch: Partial<VoiceRoomInputs> = {}): VoiceRoomInputs => ({
  channelId: 7,
  userId: 'u1',
  userName: 'Ada',
  disabled: false,
  mutedUserIds: [],
  microphoneOn: true,
  ...patch,
});

afterEach(() => {
  cleanup();
  clearToasts();
  room.set({ connected: false });
  vi.clearAllMocks();
});

describe('useVoiceRoom', () => {
  it('configures the room from its inputs and releases it when disabled or unmounted', () => {
    const { rerender, unmount } = renderHook((props: VoiceRoomInputs) => useVoiceRoom(props), {
      initialProps: inputs(),
    });
    expect(room.configure).toHaveBeenLastCalledWith({
      channelId: 7,
      userId: 'u1',
      userName: 'Ada',
    });
    rerender(inputs({ disabled: true }));
    expect(room.configure).toHaveBeenLastCalledWith(null);
    rerender(inputs());
    unmount();
    expect(room.configure).toHaveBeenLastCalledWith(null);
  });

  it('turns the microphone on only once connected, and off when muted', () => {
    const { rerender } = renderHook((props: VoiceRoomInputs) => useVoiceRoom(props), {
      initialProps: inputs(),
    });
    expect(room.setMicrophoneEnabled).not.toHaveBeenCalled();
    act(() => room.set({ connected: true }));
    expect(room.setMicrophoneEnabled).toHaveBeenLastCalledWith(true);
    rerender(inputs({ microphoneOn: false }));
    expect(room.setMicrophoneEnabled).toHaveBeenLastCalledWith(false);
  });

  it('a refused microphone toasts "Microphone Error" with the spec message', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    room.setMicrophoneEnabled.mockRejectedValueOnce(
      new DOMException('Permission denied', 'NotAllowedError'),
    );
    const toasts = renderHook(() => useToasts());
    renderHook(() => useVoiceRoom(inputs()));
    act(() => room.set({ connected: true }));
    const message = 'Microphone access denied - please allow microphone permissions';
    await waitFor(() =>
      expect(toasts.result.current[0]).toMatchObject({
        title: 'Microphone Error',
        description: message,
      }),
    );
    expect(room.reportMicrophoneFailure).toHaveBeenCalledWith(message);
  });
});
