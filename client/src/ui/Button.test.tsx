import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { Plus } from 'lucide-react';
import { Button } from './Button';

afterEach(cleanup);

describe('Button', () => {
  it('is a non-submitting button by default', () => {
    render(<Button>Create</Button>);
    expect(screen.getByRole('button', { name: 'Create' }).getAttribute('type')).toBe('button');
  });

  it('names an icon-only button for screen readers', () => {
    render(
      <Button size="icon" aria-label="Add member">
        <Plus aria-hidden="true" />
      </Button>,
    );
    expect(screen.getByRole('button', { name: 'Add member' })).toBeTruthy();
  });

  it('renders its child with the button look when asChild', () => {
    render(
      <Button asChild variant="outline">
        <a href="/upgrade">Upgrade</a>
      </Button>,
    );
    const link = screen.getByRole('link', { name: 'Upgrade' });
    expect(link.className).toContain('border-input');
  });
});
