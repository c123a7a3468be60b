import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { CallHistoryEntry } from '../../../../protocol/calls';
import type { User } from '../../../../protocol/user';
import { createQueryClient } from '../../lib/query-client';
import { ContactsMenu } from './ContactsMenu';

const user = (id: string, firstName: string, lastName: string): User => ({
  id,
  email: `${firstName.toLowerCase()}@chirp.test`,
  firstName,
  lastName,
  profileImageUrl: null,
  subscriptionTier: 'free',
});

const me = user('me', 'Ben', 'Bartholomew-Fitzgerald');
const ava = user('ava', 'Ava', 'Andersson');
const cleo = user('cleo', 'Cleo', 'Chen');

const missedFrom = (contact: User, startedAt: string): CallHistoryEntry => ({
  callId: `${contact.id}-${startedAt}`,
  direction: 'incoming',
  contactId: contact.id,
  contactName: `${contact.firstName} ${contact.lastName}`,
  contactProfileImageUrl: null,
  outcome: 'missed',
  startedAt,
  answeredAt: null,
  endedAt: startedAt,
  durationSeconds: 0,
});

/** The server as the menu reads it: me, the others, my call history. */
function serve(history: CallHistoryEntry[]) {
  const answers: Record<string, unknown> = {
    '/api/auth/user': me,
    '/api/users': [me, ava, cleo],
    '/api/contacts': [],
    '/api/conversations': [],
    '/api/calls': history,
  };
  vi.stubGlobal('fetch', (input: string | URL) => {
    const path = new URL(input, 'http://chirp.test').pathname;
    const body = answers[path];
    return Promise.resolve(
      body === undefined
        ? new Response('Not found', { status: 404 })
        : new Response(JSON.stringify(body), { status: 200 }),
    );
  });
}

function renderMenu() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ContactsMenu />
    </QueryClientProvider>,
  );
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// Under a busy machine the first render (Radix popover, queries) alone can take seconds.
describe('the Contacts button', { timeout: 15_000 }, () => {
  it('counts missed calls on its icon until the list is opened, which still says who called', async () => {
    serve([
      missedFrom(ava, '2026-11-27T08:00:00Z'),
      missedFrom(ava, '2026-11-27T07:00:00Z'),
      missedFrom(cleo, '2026-11-27T06:00:00Z'),
    ]);
    renderMenu();
    const button = await screen.findByRole(
      'button',
      { name: 'Contacts, 3 missed calls' },
      // Sign-in state, then the history: two requests and a lazy schema before the count shows.
      { timeout: 5000 },
    );
    expect(within(button).getByText('3')).toBeTruthy();
    // The label is never shortened for the count.
    expect(within(button).getByText('Contacts')).toBeTruthy();

    fireEvent.click(button);
    const list = await screen.findByRole('dialog', { name: 'Contacts' });
    await within(list).findByText('Ava Andersson', undefined, { timeout: 5000 });
    expect(within(list).getAllByText('Missed call')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Contacts' }).textContent).toBe('Contacts');

    // Closed again: seen, no count (the rows keep their marks until the person is called back).
    fireEvent.keyDown(list, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Contacts' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Contacts' }).textContent).toBe('Contacts');
  });

  it('shows no count when nothing was missed', async () => {
    serve([{ ...missedFrom(ava, '2026-11-27T08:00:00Z'), outcome: 'answered' }]);
    renderMenu();
    const button = await screen.findByRole('button', { name: 'Contacts' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(button.textContent).toBe('Contacts');
  });
});
