import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { User } from '../../../../protocol/user';
import { Providers } from '../../app/Providers';
import { createQueryClient } from '../../lib/query-client';
import { ContactsMenu } from './ContactsMenu';

const ADA: User = {
  id: 'u1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  profileImageUrl: null,
  subscriptionTier: 'free',
};
const BEN: User = { ...ADA, id: 'u2', email: 'ben@example.com', firstName: 'Ben' };

beforeEach(() => {
  vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
    const url = input instanceof Request ? input.url : input.toString();
    if (url === '/api/auth/user') return Promise.resolve(Response.json(ADA));
    if (url === '/api/users') return Promise.resolve(Response.json([ADA, BEN]));
    if (url === '/api/contacts' || url === '/api/conversations')
      return Promise.resolve(Response.json([]));
    return Promise.resolve(new Response('Not Found', { status: 404 }));
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderOpenMenu() {
  return render(
    <Providers queryClient={createQueryClient()}>
      <ContactsMenu defaultOpen />
    </Providers>,
  );
}

describe('Contacts > Import', () => {
  it('is not offered where the browser has no contact picker', async () => {
    renderOpenMenu();
    expect(await screen.findByRole('button', { name: 'Call Ben Lovelace' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
  });

  it('is offered where the browser has one', async () => {
    vi.stubGlobal('navigator', { ...navigator, contacts: { select: () => Promise.resolve([]) } });
    renderOpenMenu();
    expect(await screen.findByRole('button', { name: 'Call Ben Lovelace' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Import' })).toBeTruthy();
  });
});
