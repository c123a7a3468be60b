import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { animatedElements, animatesOnlyWithMotion } from '../../testing/animated-elements';
import { SHAKE_MS, TalkButton, type TalkButtonProps } from './TalkButton';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function renderButton(props: Partial<TalkButtonProps> = {}) {
  const onPress = vi.fn();
  const onRelease = vi.fn();
  const view = render(
    <TalkButton state="ready" onPress={onPress} onRelease={onRelease} {...props} />,
  );
  const rerender = (next: Partial<TalkButtonProps>) =>
    view.rerender(
      <TalkButton state="ready" onPress={onPress} onRelease={onRelease} {...props} {...next} />,
    );
  return { ...view, onPress, onRelease, rerender };
}

describe('the talk button, ready', () => {
  it('says Hold to talk, and a held pointer talks until it lets go', () => {
    const { onPress, onRelease } = renderButton();
    const button = screen.getByRole('button', { name: /Hold to talk/ });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    fireEvent.pointerDown(button, { button: 0, pointerId: 1 });
    expect(onPress).toHaveBeenCalledTimes(1);
    expect(onRelease).not.toHaveBeenCalled();
    fireEvent.pointerUp(button, { button: 0, pointerId: 1 });
    expect(onRelease).toHaveBeenCalledTimes(1);
  });

  it('a touch that slides off while talking still ends the hold (pointer cancelled)', () => {
    const { onPress, onRelease } = renderButton();
    const button = screen.getByRole('button', { name: /Hold to talk/ });
    fireEvent.pointerDown(button, { button: 0, pointerId: 3, pointerType: 'touch' });
    fireEvent.pointerCancel(button, { pointerId: 3 });
    expect(onPress).toHaveBeenCalledTimes(1);
    expect(onRelease).toHaveBeenCalledTimes(1);
  });

  it.each([' ', 'Enter'])(
    'holding %j while focused talks; key repeats do not press again',
    (key) => {
      const { onPress, onRelease } = renderButton();
      const button = screen.getByRole('button', { name: /Hold to talk/ });
      button.focus();
      fireEvent.keyDown(button, { key });
      fireEvent.keyDown(button, { key, repeat: true });
      fireEvent.keyDown(button, { key, repeat: true });
      expect(onPress).toHaveBeenCalledTimes(1);
      expect(onRelease).not.toHaveBeenCalled();
      fireEvent.keyUp(button, { key });
      expect(onRelease).toHaveBeenCalledTimes(1);
    },
  );

  it('a right click or another key does nothing', () => {
    const { onPress } = renderButton();
    const button = screen.getByRole('button', { name: /Hold to talk/ });
    fireEvent.pointerDown(button, { button: 2, pointerId: 1 });
    fireEvent.keyDown(button, { key: 'a' });
    expect(onPress).not.toHaveBeenCalled();
  });
});

describe('the talk button, live', () => {
  it('shows Live and a ring counting down the maximum, the seconds left as a timer', () => {
    renderButton({ state: 'live', countdown: { left: 42, total: 60 } });
    const button = screen.getByRole('button', { name: /Live/ });
    expect(button.getAttribute('aria-pressed')).toBe('true');
    expect(button.textContent).toContain('Release to stop');
    expect(screen.getByRole('timer').textContent).toBe('42 seconds left');
    expect(screen.getByTestId('countdown-ring').getAttribute('data-fraction')).toBe('0.700');
  });

  it('the ring empties as the seconds run out', () => {
    const { rerender } = renderButton({ state: 'live', countdown: { left: 60, total: 60 } });
    expect(screen.getByTestId('countdown-ring').getAttribute('data-fraction')).toBe('1.000');
    rerender({ countdown: { left: 1, total: 60 } });
    expect(screen.getByRole('timer').textContent).toBe('1 second left');
    expect(screen.getByTestId('countdown-ring').getAttribute('data-fraction')).toBe('0.017');
  });

  it('with no maximum (an open channel held to talk) there is no countdown', () => {
    renderButton({ state: 'live', countdown: null });
    expect(screen.getByRole('button', { name: /Live/ })).toBeTruthy();
    expect(screen.queryByRole('timer')).toBeNull();
  });
});

describe('the talk button, busy', () => {
  it('says Busy, described by who is talking, and can still be pressed (an admin cuts in)', () => {
    const onPress = vi.fn();
    render(
      <>
        <TalkButton state="busy" describedBy="floor" onPress={onPress} onRelease={vi.fn()} />
        <p id="floor">Ava Andersson is talking</p>
      </>,
    );
    const button = screen.getByRole('button', {
      name: 'Busy',
      description: 'Ava Andersson is talking',
    });
    expect(button.hasAttribute('disabled')).toBe(false);
    fireEvent.pointerDown(button, { button: 0, pointerId: 1 });
    expect(onPress).toHaveBeenCalledTimes(1);
  });

  it('tells a channel admin that holding cuts in', () => {
    const { rerender } = renderButton({ state: 'busy', mayCutIn: true });
    expect(screen.getByRole('button', { name: 'Busy Hold to cut in' })).toBeTruthy();
    rerender({ mayCutIn: false });
    expect(screen.getByRole('button', { name: 'Busy' })).toBeTruthy();
  });

  it('a refused press shakes it once, only with motion allowed, and it says refused while held', () => {
    vi.useFakeTimers();
    const { container, rerender } = renderButton({ state: 'busy' });
    expect(animatedElements(container)).toEqual([]);

    rerender({ refused: true, refusedAt: 1_000 });
    const button = screen.getByRole('button', { name: 'Busy' });
    expect(button.getAttribute('data-state')).toBe('refused');
    expect(button.getAttribute('aria-pressed')).toBe('true');
    expect(button.getAttribute('data-shaking')).toBe('true');
    expect(animatedElements(container)).toEqual([screen.getByTestId('talk-button-frame')]);
    expect(animatesOnlyWithMotion(container)).toBe(true);
    // Under prefers-reduced-motion a still outline shows the refusal instead.
    expect(screen.getByTestId('talk-button-frame').className).toContain('motion-reduce:outline');

    act(() => {
      vi.advanceTimersByTime(SHAKE_MS);
    });
    expect(button.getAttribute('data-shaking')).toBeNull();
    expect(animatedElements(container)).toEqual([]);

    // The next refusal shakes again.
    rerender({ refused: true, refusedAt: 2_000 });
    expect(button.getAttribute('data-shaking')).toBe('true');
  });
});

describe('the talk button, off', () => {
  it('is disabled and described by the note that says why', () => {
    render(
      <>
        <TalkButton state="off" describedBy="why" onPress={vi.fn()} onRelease={vi.fn()} />
        <p id="why">Go online to talk</p>
      </>,
    );
    const button = screen.getByRole('button', { name: /Hold to talk/ });
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(button.getAttribute('aria-describedby')).toBe('why');
  });

  it('ends a hold that was going on when it turns off', () => {
    const { onRelease, rerender } = renderButton({ state: 'live' });
    fireEvent.pointerDown(screen.getByRole('button', { name: /Live/ }), {
      button: 0,
      pointerId: 1,
    });
    rerender({ state: 'off' });
    expect(onRelease).toHaveBeenCalledTimes(1);
  });
});
