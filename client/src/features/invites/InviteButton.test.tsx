import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../lib/query-client';
import { InviteButton } from './InviteButton';

/** Chrome on Android's Contact Picker API, as far as the app uses it. */
function withContactPicker(): void {
  vi.stubGlobal('navigator', {
    ...navigator,
    contacts: { select: () => Promise.resolve([]) },
  });
}

function renderInvite() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <InviteButton channelId={3} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Invite (contact picker)', () => {
  it('is not offered where the browser has no contact picker', () => {
    renderInvite();
    expect(screen.queryByRole('button', { name: 'Invite' })).toBeNull();
  });

  it('is offered where the browser has one', () => {
    withContactPicker();
    renderInvite();
    expect(screen.getByRole('button', { name: 'Invite' })).toBeTruthy();
  });
});
