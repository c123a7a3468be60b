import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { RadioCardGroup } from './RadioCardGroup';

afterEach(cleanup);

const OPTIONS = [
  { value: 'open', label: 'Open', help: 'Everyone online can talk at once.' },
  { value: 'walkie', label: 'Walkie-talkie', help: 'One person talks at a time.' },
] as const;

describe('RadioCardGroup', () => {
  it('is a radio group named by its legend, each radio named by its label and help', () => {
    render(<RadioCardGroup legend="Talk mode" options={OPTIONS} value="open" onChange={vi.fn()} />);
    expect(screen.getByRole('group', { name: 'Talk mode' })).toBeTruthy();
    const open = screen.getByRole<HTMLInputElement>('radio', { name: /Open.*talk at once/ });
    const walkie = screen.getByRole<HTMLInputElement>('radio', { name: /Walkie-talkie/ });
    expect(open.checked).toBe(true);
    expect(walkie.checked).toBe(false);
    expect(open.name).toBe(walkie.name);
  });

  it('hands the chosen value back', () => {
    const onChange = vi.fn();
    render(
      <RadioCardGroup legend="Talk mode" options={OPTIONS} value="open" onChange={onChange} />,
    );
    fireEvent.click(screen.getByRole('radio', { name: /Walkie-talkie/ }));
    expect(onChange).toHaveBeenCalledWith('walkie');
  });
});
