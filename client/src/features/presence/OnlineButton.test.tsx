import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { animatedElements, animatesOnlyWithMotion } from '../../testing/animated-elements';
import { OnlineButton } from './OnlineButton';
import { presenceStore } from './presence-store';

// ONLINE in a channel on an open socket, microphone open (the spec's default talk mode).
beforeEach(() => {
  presenceStore.dispatch({ type: 'socket', open: true });
  presenceStore.dispatch({ type: 'select_channel', channelId: 7 });
  presenceStore.dispatch({ type: 'toggle_online' });
  presenceStore.dispatch({ type: 'voice', onAir: true });
});

afterEach(() => {
  cleanup();
  presenceStore.dispatch({ type: 'detach' });
  presenceStore.dispatch({ type: 'socket', open: false });
});

describe('OnlineButton on the air', () => {
  it('shows the on-air halo standing still while no voice is heard', () => {
    const { container } = render(<OnlineButton />);
    expect(screen.getByRole('button', { name: /ONLINE/ }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(screen.getByTestId('on-air-halo')).toBeTruthy();
    expect(animatedElements(container)).toEqual([]);
  });

  it('pulses the halo while the user’s voice is heard, and not under reduced motion', () => {
    const { container } = render(<OnlineButton voiceHeard />);
    expect(animatedElements(container)).toEqual([screen.getByTestId('on-air-halo')]);
    expect(animatesOnlyWithMotion(container)).toBe(true);
  });

  it('stops pulsing when the voice stops', () => {
    const { container, rerender } = render(<OnlineButton voiceHeard />);
    rerender(<OnlineButton voiceHeard={false} />);
    expect(screen.getByTestId('on-air-halo')).toBeTruthy();
    expect(animatedElements(container)).toEqual([]);
  });
});

describe('OnlineButton as the switch beside the talk button', () => {
  it('keeps the spec texts and only toggles: a press is never a hold to talk', () => {
    presenceStore.dispatch({ type: 'set_talk_mode', mode: 'hold' });
    const { container } = render(<OnlineButton variant="switch" />);
    const button = screen.getByRole('button', { name: /ONLINE.*Tap to disconnect/ });
    expect(button.getAttribute('aria-pressed')).toBe('true');
    expect(screen.queryByTestId('on-air-halo')).toBeNull();
    expect(animatedElements(container)).toEqual([]);
    fireEvent.pointerDown(button);
    expect(presenceStore.state.gate.state).toBe('standby');
    fireEvent.pointerUp(button);
    fireEvent.click(button);
    expect(presenceStore.state.online).toBe(false);
    expect(screen.getByRole('button', { name: /OFFLINE.*Tap to connect/ })).toBeTruthy();
    presenceStore.dispatch({ type: 'set_talk_mode', mode: 'toggle' });
  });
});

describe('OnlineButton while idle', () => {
  it('takes a tap as coming back, not as going OFFLINE', () => {
    act(() => presenceStore.dispatch({ type: 'idle', idle: true }));
    render(<OnlineButton />);
    const button = screen.getByRole('button', { name: /ONLINE/ });
    fireEvent.pointerDown(button);
    // The page's input listener ends idling on the same press (idle-watch.ts).
    act(() => presenceStore.dispatch({ type: 'idle', idle: false }));
    fireEvent.click(button);
    expect(presenceStore.state.online).toBe(true);
    // The next tap, no longer idle, toggles as the caption says.
    fireEvent.pointerDown(button);
    fireEvent.click(button);
    expect(presenceStore.state.online).toBe(false);
  });
});
