import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SOS_COUNTDOWN_MS } from '../../../../protocol/sos';
import { SosCountdown } from './SosCountdown';

const family = { id: 7, name: 'Family', sosSeconds: 10 };

afterEach(cleanup);

describe('the SOS countdown', () => {
  it('is a full-screen alert counting from 5, with Cancel focused', () => {
    render(
      <SosCountdown target={family} endsAt={Date.now() + SOS_COUNTDOWN_MS} onCancel={vi.fn()} />,
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Sending SOS to Family in 5…' });
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    expect(dialog.contains(cancel)).toBe(true);
    expect(document.activeElement).toBe(cancel);
  });

  it('Cancel and Escape both cancel', () => {
    const onCancel = vi.fn();
    render(
      <SosCountdown target={family} endsAt={Date.now() + SOS_COUNTDOWN_MS} onCancel={onCancel} />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    onCancel.mockClear();
    fireEvent.keyDown(screen.getByRole('button', { name: 'Cancel' }), { key: 'Escape' });
    expect(onCancel).toHaveBeenCalled();
  });

  it('once on its way it says so and can no longer be cancelled', () => {
    render(<SosCountdown target={family} endsAt={null} onCancel={vi.fn()} />);
    expect(screen.getByRole('alertdialog', { name: 'Sending SOS…' })).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Cancel' }).disabled).toBe(true);
  });
});
