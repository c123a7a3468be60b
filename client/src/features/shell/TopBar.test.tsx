import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { TopBar } from './TopBar';

// The first import of the tooltip's code (all of Radix) is slow in jsdom; the app loads it once.
beforeAll(() => import('../../ui/Tooltip'), 30_000);
afterEach(cleanup);

/**
 * The button, once the tooltips' code has loaded just after the first render: the button is
 * rendered afresh then, inside its tooltip trigger, which gives it a `data-state`.
 */
async function withTooltip(name: string): Promise<HTMLElement> {
  return waitFor(() => {
    const button = screen.getByRole('button', { name });
    expect(button.getAttribute('data-state')).not.toBeNull();
    return button;
  });
}

describe('TopBar tooltips', () => {
  it('shows what each button does when it gets keyboard focus', async () => {
    render(<TopBar />);
    const hints = {
      Contacts: 'Call or talk with people on this server',
      Channels: 'Switch to another channel',
      Share: 'Share an invite link to this channel',
      Settings: 'Your account, devices and server settings',
      Logout: 'Sign out of Chirp on this device',
    };
    for (const [name, hint] of Object.entries(hints)) {
      const button = await withTooltip(name);
      fireEvent.keyDown(document.body, { key: 'Tab' });
      act(() => button.focus());
      expect((await screen.findByRole('tooltip')).textContent).toBe(hint);
      act(() => button.blur());
      await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
    }
  });

  it('keeps the label as the name and the hint as the description', async () => {
    render(<TopBar />);
    const settings = await withTooltip('Settings');
    fireEvent.keyDown(document.body, { key: 'Tab' });
    act(() => settings.focus());
    await screen.findByRole('tooltip');
    expect(settings.textContent).toBe('Settings');
    const describedBy = settings.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toBe(
      'Your account, devices and server settings',
    );
  });

  it('shows no tooltip when focus comes back after a press (a closed menu)', async () => {
    render(<TopBar />);
    const logout = await withTooltip('Logout');
    fireEvent.pointerDown(document.body);
    act(() => logout.focus());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});
