import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SecondsField } from './SecondsField';

afterEach(cleanup);

const field = (overrides: Partial<Parameters<typeof SecondsField>[0]> = {}) => (
  <SecondsField
    label="SOS talk time (seconds)"
    range={{ min: 5, max: 30 }}
    value="15"
    onChange={vi.fn()}
    help="Between 5 and 30 s."
    error={null}
    {...overrides}
  />
);

describe('SecondsField', () => {
  it('is a number input named by its label, described by its help, kept to its range', () => {
    render(field());
    const input = screen.getByRole<HTMLInputElement>('spinbutton', {
      name: 'SOS talk time (seconds)',
      description: 'Between 5 and 30 s.',
    });
    expect([input.min, input.max, input.value]).toEqual(['5', '30', '15']);
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('hands back what is typed, and shows an error as an alert with the input marked invalid', () => {
    const onChange = vi.fn();
    render(field({ onChange, error: 'Too long' }));
    const input = screen.getByRole('spinbutton', { name: 'SOS talk time (seconds)' });
    fireEvent.change(input, { target: { value: '45' } });
    expect(onChange).toHaveBeenCalledWith('45');
    expect(screen.getByRole('alert').textContent).toBe('Too long');
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });

  it('puts its action beside the input', () => {
    render(field({ action: <button type="submit">Save</button> }));
    const input = screen.getByRole('spinbutton');
    expect(input.parentElement).toBe(screen.getByRole('button', { name: 'Save' }).parentElement);
  });
});
