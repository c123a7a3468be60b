import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SOS_HOLD_MS } from '../../../../protocol/sos';
import { SosHoldButton } from './SosHoldButton';

const family = { id: 7, name: 'Family', sosSeconds: 10 };

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function renderButton() {
  const onHeld = vi.fn();
  render(<SosHoldButton target={family} onHeld={onHeld} />);
  return {
    onHeld,
    button: screen.getByRole('button', { name: 'SOS to Family, hold for 2 seconds' }),
  };
}

describe('the SOS button', () => {
  it('says where the SOS goes and how to send it', () => {
    const { button } = renderButton();
    expect(button.textContent).toBe('SOS');
  });

  it('released before 2 seconds sends nothing and says to hold', () => {
    const { onHeld, button } = renderButton();
    fireEvent.pointerDown(button, { button: 0, pointerId: 1 });
    expect(button.getAttribute('data-holding')).toBe('true');
    act(() => void vi.advanceTimersByTime(SOS_HOLD_MS - 100));
    fireEvent.pointerUp(button, { button: 0, pointerId: 1 });
    act(() => void vi.advanceTimersByTime(SOS_HOLD_MS));
    expect(onHeld).not.toHaveBeenCalled();
    expect(button.getAttribute('data-holding')).toBe('false');
    expect(screen.getByRole('status').textContent).toBe('Hold for 2 seconds');
  });

  it('held 2 seconds by pointer starts the countdown, once', () => {
    const { onHeld, button } = renderButton();
    fireEvent.pointerDown(button, { button: 0, pointerId: 1 });
    act(() => void vi.advanceTimersByTime(SOS_HOLD_MS));
    expect(onHeld).toHaveBeenCalledTimes(1);
    expect(onHeld).toHaveBeenCalledWith(family);
    fireEvent.pointerUp(button, { button: 0, pointerId: 1 });
    expect(onHeld).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('a touch cancelled (scrolling away) sends nothing', () => {
    const { onHeld, button } = renderButton();
    fireEvent.pointerDown(button, { button: 0, pointerId: 2, pointerType: 'touch' });
    fireEvent.pointerCancel(button, { pointerId: 2 });
    act(() => void vi.advanceTimersByTime(SOS_HOLD_MS * 2));
    expect(onHeld).not.toHaveBeenCalled();
  });

  it.each([' ', 'Enter'])(
    'holding %j while focused for 2 seconds starts it; key repeats do not restart',
    (key) => {
      const { onHeld, button } = renderButton();
      button.focus();
      fireEvent.keyDown(button, { key });
      act(() => void vi.advanceTimersByTime(1000));
      fireEvent.keyDown(button, { key, repeat: true });
      act(() => void vi.advanceTimersByTime(SOS_HOLD_MS - 1000));
      expect(onHeld).toHaveBeenCalledTimes(1);
    },
  );

  it('Space held on SOS is not also push-to-talk (the window never sees it)', () => {
    const { button } = renderButton();
    const seen: string[] = [];
    const onKey = (event: KeyboardEvent) => seen.push(event.type);
    window.addEventListener('keydown', onKey);
    window.addEventListener('keyup', onKey);
    fireEvent.keyDown(button, { key: ' ', code: 'Space' });
    fireEvent.keyUp(button, { key: ' ', code: 'Space' });
    window.removeEventListener('keydown', onKey);
    window.removeEventListener('keyup', onKey);
    expect(seen).toEqual([]);
  });

  it('a key let go early, a click or another key sends nothing', () => {
    const { onHeld, button } = renderButton();
    button.focus();
    fireEvent.keyDown(button, { key: 'Enter' });
    fireEvent.keyUp(button, { key: 'Enter' });
    fireEvent.click(button);
    fireEvent.keyDown(button, { key: 'a' });
    fireEvent.pointerDown(button, { button: 2, pointerId: 1 });
    act(() => void vi.advanceTimersByTime(SOS_HOLD_MS * 2));
    expect(onHeld).not.toHaveBeenCalled();
  });
});
