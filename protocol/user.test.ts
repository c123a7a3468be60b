import { describe, expect, it } from 'vitest';
import { displayName } from './user.js';

const base = { email: 'sam@example.com', firstName: null, lastName: null, subscriptionTier: 'free' as const };

describe('displayName (spec §3)', () => {
  it('uses first and last name when both exist', () => {
    expect(displayName({ ...base, firstName: 'Sam', lastName: 'Lee', subscriptionTier: 'superadmin' })).toBe('Sam Lee');
  });
  it('uses the tier title for admins without a full name', () => {
    expect(displayName({ ...base, firstName: 'Sam', subscriptionTier: 'superadmin' })).toBe('Super Admin User');
    expect(displayName({ ...base, subscriptionTier: 'admin' })).toBe('Admin User');
  });
  it('falls back to the email', () => {
    expect(displayName({ ...base, firstName: 'Sam', subscriptionTier: 'member' })).toBe('sam@example.com');
  });
  it('uses the one name there is when the e-mail is hidden from the viewer', () => {
    expect(displayName({ ...base, email: null, firstName: 'Sam' })).toBe('Sam');
    expect(displayName({ ...base, email: null, lastName: 'Lee' })).toBe('Lee');
    expect(displayName({ ...base, email: null })).toBe('');
  });
});
