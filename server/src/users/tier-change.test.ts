import { describe, expect, it } from 'vitest';
import { tierAfterChange } from './tier-change.js';

describe('tierAfterChange (spec §5)', () => {
  it('applies a change between free, member and admin', () => {
    expect(tierAfterChange('free', 'admin')).toBe('admin');
    expect(tierAfterChange('admin', 'free')).toBe('free');
    expect(tierAfterChange('member', 'member')).toBe('member');
  });
  it('never changes a superadmin', () => {
    expect(tierAfterChange('superadmin', 'free')).toBe('superadmin');
  });
});
