import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Toaster } from './Toaster';
import { clearToasts, dismissToast, toast } from './toast-store';

afterEach(() => {
  cleanup();
  act(() => clearToasts());
});

describe('Toaster', () => {
  it('shows a toast with its title and description', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Online', description: 'Connecting to voice...' });
    });
    expect(screen.getByText('Online')).toBeTruthy();
    expect(screen.getByText('Connecting to voice...')).toBeTruthy();
  });

  it('keeps only one toast visible: the newest', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Self Muted' });
      toast({ title: 'Self Unmuted' });
    });
    expect(screen.queryByText('Self Muted')).toBeNull();
    expect(screen.getByText('Self Unmuted')).toBeTruthy();
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });

  it('gives destructive toasts their own look', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Error', description: 'Failed to create channel', variant: 'destructive' });
    });
    const item = screen.getByRole('listitem');
    expect(item.getAttribute('data-variant')).toBe('destructive');
  });

  it('hides a dismissed toast', () => {
    render(<Toaster />);
    let id = '';
    act(() => {
      id = toast({ title: 'Offline' }).id;
    });
    expect(screen.getByText('Offline')).toBeTruthy();
    act(() => dismissToast(id));
    expect(screen.queryByText('Offline')).toBeNull();
  });
});
