import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { TruncatedText } from './TruncatedText';

const NAME = 'Ben Bartholomew-Fitzgerald';

/** jsdom lays nothing out: the test says how wide the text is and how wide its box. */
function layout(textWidth: number, boxWidth: number): void {
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(textWidth);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(boxWidth);
}

beforeAll(() => import('./Tooltip'), 30_000);
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('TruncatedText', () => {
  it('shows the whole name in a tooltip when it is cut off, also on keyboard focus', async () => {
    layout(240, 120);
    render(<TruncatedText text={NAME} />);
    const text = await waitFor(() => {
      const element = screen.getByText(NAME);
      expect(element.getAttribute('data-state')).not.toBeNull();
      return element;
    });
    expect(text.tabIndex).toBe(0);
    fireEvent.keyDown(document.body, { key: 'Tab' });
    act(() => text.focus());
    expect((await screen.findByRole('tooltip')).textContent).toBe(NAME);
  });

  it('adds no tab stop and no tooltip when the name fits', async () => {
    layout(120, 120);
    render(<TruncatedText text={NAME} />);
    const text = await waitFor(() => {
      const element = screen.getByText(NAME);
      expect(element.getAttribute('data-state')).not.toBeNull();
      return element;
    });
    expect(text.getAttribute('tabindex')).toBeNull();
    fireEvent.keyDown(document.body, { key: 'Tab' });
    act(() => text.focus());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});
