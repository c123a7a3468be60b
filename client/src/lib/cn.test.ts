import { describe, expect, it } from 'vitest';
import { cn } from './cn';

describe('cn', () => {
  it('drops falsy values and joins the rest', () => {
    expect(cn('a', false, null, undefined, 0, 'b')).toBe('a b');
  });

  it("lets a caller's class override the component's class for the same property", () => {
    expect(cn('px-2 py-1 bg-primary', 'px-4')).toBe('py-1 bg-primary px-4');
    expect(cn('text-sm text-muted-foreground', 'text-destructive')).toBe('text-sm text-destructive');
  });
});
