import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { SubscriptionTier } from '../../../../protocol/user';
import { createQueryClient } from '../../lib/query-client';
import { UpgradeScreen } from './UpgradeScreen';

function renderAs(tier: SubscriptionTier) {
  const user = { id: 'u', email: 'u@example.com', firstName: 'Uma', lastName: 'User', profileImageUrl: null, subscriptionTier: tier };
  vi.stubGlobal('fetch', (input: string) =>
    Promise.resolve(new Response(JSON.stringify(input.endsWith('/api/config') ? { billing: true } : user), { status: 200 })),
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <UpgradeScreen />
    </QueryClientProvider>,
  );
}

/** A plan card, found by its heading (each card is labelled by its plan's name). */
const plan = async (name: string) => {
  const heading = await screen.findByRole('heading', { name: new RegExp(`^${name}$`) });
  return within(heading.closest<HTMLElement>('[aria-labelledby]')!);
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Upgrade', { timeout: 20_000 }, () => {
  it('marks Free as a free user’s plan, and sells only what Member and Admin add', async () => {
    renderAs('free');
    const free = await plan('Free');
    expect(await free.findByText('Your plan')).toBeTruthy();
    expect(free.getByText('One-to-one calls and pokes')).toBeTruthy();
    const member = await plan('Member');
    expect(member.queryByText('One-to-one calls and pokes')).toBeNull();
    expect(member.queryByText('Your plan')).toBeNull();
    expect(member.getByRole('button', { name: 'Start free trial' })).toHaveProperty('disabled', false);
    expect((await plan('Admin')).getByText('Recommended')).toBeTruthy();
  });

  it('marks Member as a member’s plan, with nothing to buy there', async () => {
    renderAs('member');
    const member = await plan('Member');
    expect(await member.findByText('Your plan')).toBeTruthy();
    expect(member.getByRole('button', { name: 'Your current plan' })).toHaveProperty('disabled', true);
    expect((await plan('Free')).queryByText('Your plan')).toBeNull();
  });

  it('does not offer an admin the Member plan they already have', async () => {
    renderAs('admin');
    expect(await (await plan('Admin')).findByText('Your plan')).toBeTruthy();
    expect((await plan('Member')).getByRole('button', { name: 'Included in your plan' })).toHaveProperty('disabled', true);
  });
});
