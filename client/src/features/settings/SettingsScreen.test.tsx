import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { SubscriptionTier, User } from '../../../../protocol/user';
import { createQueryClient } from '../../lib/query-client';
import { Toaster } from '../../ui/Toaster';
import { SettingsScreen } from './SettingsScreen';

const me = (tier: SubscriptionTier): User => ({
  id: 'me',
  email: 'me@example.com',
  firstName: 'Mia',
  lastName: 'Example',
  profileImageUrl: null,
  subscriptionTier: tier,
});
const pia: User = { ...me('free'), id: 'pia', email: 'pia@example.com', firstName: 'Pia', lastName: 'Person' };

type Answer = { status: number; body: unknown };
type Server = { user: User; ownerClaimed: boolean; override?: (method: string, path: string, body: unknown) => Answer | undefined };

/** The server's answers, by path: enough of each for the cards to render their content. */
function fakeServer(server: Server) {
  const requests: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
    const path = new URL(input, 'http://localhost').pathname;
    const method = init?.method ?? 'GET';
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    requests.push({ method, path, body });
    const answer = server.override?.(method, path, body) ?? defaultAnswer(server, path);
    return Promise.resolve(new Response(JSON.stringify(answer.body), { status: answer.status }));
  });
  return requests;
}

function defaultAnswer(server: Server, path: string): Answer {
  const ok = (body: unknown) => ({ status: 200, body });
  switch (path) {
    case '/api/auth/user':
      return ok(server.user);
    case '/api/setup':
      return ok({ ownerClaimed: server.ownerClaimed });
    case '/api/account':
      return ok({ passwordSignIn: true, createdChannels: [] });
    case '/api/config':
      return ok({ billing: true });
    case '/api/users':
      return ok([server.user, pia]);
    case '/api/usage':
      return ok({
        totalMonthlyMinutes: 0,
        usagePercentage: 0,
        freeMinutesRemaining: 10000,
        warningLevel: 'low',
        isOverLimit: false,
        overageMinutes: 0,
        estimatedOverageCost: 0,
        payAsYouGoEnabled: false,
      });
    case '/api/voice-preferences':
      return ok({ rogerBeep: false, memberVolumes: {} });
    case '/api/push/preferences':
      return ok({ calls: true, pokes: true, transmissions: true, channelAdds: true });
    default:
      return ok([]);
  }
}

function renderSettings(server: Server, search = '') {
  const requests = fakeServer(server);
  const location = memoryLocation({ path: `/settings${search}`, record: true });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <SettingsScreen />
      </Router>
      <Toaster />
    </QueryClientProvider>,
  );
  return { requests, location };
}

const tab = (name: string) => screen.getByRole('tab', { name });
const panel = () => screen.getByRole('tabpanel');
const cardTitles = () =>
  within(panel())
    .getAllByRole('heading', { level: 3 })
    .map((heading) => heading.textContent);

/** Radix Select opens from the keyboard; jsdom lacks the scrolling and pointer capture it calls. */
function openSelect(trigger: HTMLElement) {
  fireEvent.keyDown(trigger, { key: 'Enter' });
}
function choose(option: HTMLElement) {
  fireEvent.keyDown(option, { key: 'Enter' });
}

beforeAll(() => {
  Element.prototype.scrollIntoView = () => undefined;
  Element.prototype.hasPointerCapture = () => false;
  Element.prototype.releasePointerCapture = () => undefined;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// Whole screens with every card's queries: slower than one component on a loaded machine.
const SLOW = { timeout: 30_000 };

describe('Settings in sections', SLOW, () => {
  it('shows You first, and each section lists its own cards', async () => {
    renderSettings({ user: me('superadmin'), ownerClaimed: true });
    await screen.findByRole('tab', { name: 'Server' });
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['You', 'Voice and devices', 'Notifications', 'Channels', 'Server']);
    expect(tab('You').getAttribute('aria-selected')).toBe('true');
    await waitFor(() =>
      expect(cardTitles()).toEqual([
        'Super Admin',
        'Your name',
        'Account Information',
        'Password',
        'Usage',
        'Blocked Users',
        'Delete account',
      ]),
    );

    const sections: [string, string[]][] = [
      ['Voice and devices', ['Microphone and speaker', 'Talk mode']],
      ['Notifications', ['Notifications']],
      ['Channels', ['Channel Management', 'Member Management']],
      ['Server', ['User Management']],
    ];
    for (const [name, titles] of sections) {
      // Radix tabs activate on mousedown (a real click) and on focus with the arrow keys.
      fireEvent.mouseDown(tab(name));
      await waitFor(() => expect(tab(name).getAttribute('aria-selected')).toBe('true'));
      expect(cardTitles()).toEqual(titles);
    }
  });

  it('keeps the section in the address, and opens the one a link names', async () => {
    const { location } = renderSettings({ user: me('free'), ownerClaimed: true }, '?section=channels');
    await waitFor(() => expect(tab('Channels').getAttribute('aria-selected')).toBe('true'));
    expect(screen.getByRole('heading', { name: 'Channel Management' })).toBeTruthy();
    fireEvent.mouseDown(tab('Voice and devices'));
    await waitFor(() => expect(location.history.at(-1)).toBe('/settings?section=voice'));
    fireEvent.mouseDown(tab('You'));
    await waitFor(() => expect(location.history.at(-1)).toBe('/settings'));
  });

  it('hides Server from people who may not see server settings, even when a link asks for it', async () => {
    renderSettings({ user: me('admin'), ownerClaimed: true }, '?section=server');
    await screen.findByRole('heading', { name: 'Your name' });
    expect(screen.queryByRole('tab', { name: 'Server' })).toBeNull();
    expect(tab('You').getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByRole('heading', { name: 'User Management' })).toBeNull();
  });

  it('leads anyone to Claim this server while the server has no owner', async () => {
    renderSettings({ user: me('free'), ownerClaimed: false }, '?section=server');
    expect(await screen.findByRole('heading', { name: 'Claim this server' })).toBeTruthy();
    expect(tab('Server').getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByRole('heading', { name: 'User Management' })).toBeNull();
  });
});

describe('Your name', SLOW, () => {
  it('saves a trimmed first and last name and says how people see you now', async () => {
    const requests = renderSettings({
      user: me('free'),
      ownerClaimed: true,
      override: (method, path, body) =>
        method === 'PUT' && path === '/api/account/name'
          ? { status: 200, body: { ...me('free'), ...(body as object) } }
          : undefined,
    }).requests;
    const first = await screen.findByLabelText('First name');
    const save = screen.getByRole('button', { name: 'Save name' });
    expect((save as HTMLButtonElement).disabled).toBe(true); // nothing changed yet
    fireEvent.change(first, { target: { value: '  ' } });
    expect(screen.getByRole('alert').textContent).toBe('First name cannot be empty');
    expect((save as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(first, { target: { value: ' Maya ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save name' }));

    expect(await screen.findByText('Name changed')).toBeTruthy();
    expect(screen.getByText('People now see you as Maya Example.')).toBeTruthy();
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({ firstName: 'Maya', lastName: 'Example' });
  });

  it('shows the server’s refusal in an error toast', async () => {
    renderSettings({
      user: me('free'),
      ownerClaimed: true,
      override: (method, path) =>
        method === 'PUT' && path === '/api/account/name'
          ? { status: 400, body: { message: 'Last name must be at most 64 characters' } }
          : undefined,
    });
    fireEvent.change(await screen.findByLabelText('Last name'), { target: { value: 'Other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Failed to change name')).toBeTruthy();
    expect(screen.getByText('Last name must be at most 64 characters')).toBeTruthy();
  });
});

describe('confirmations', SLOW, () => {
  it('a tier change says who is now what; a refused one shows the server’s message', async () => {
    let refuse = false;
    renderSettings(
      {
        user: me('superadmin'),
        ownerClaimed: true,
        override: (method, path, body) => {
          if (method !== 'POST' || path !== '/api/users/pia/subscription') return undefined;
          if (refuse) return { status: 403, body: { message: 'Forbidden' } };
          return { status: 200, body: { ...pia, ...(body as object) } };
        },
      },
      '?section=server',
    );
    const selector = await screen.findByRole('combobox', { name: 'Tier for Pia Person' });
    expect(selector.textContent).toBe('Change tier');
    openSelect(selector);
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Free', 'Member', 'Admin']);
    choose(screen.getByRole('option', { name: 'Member' }));
    expect(await screen.findByText('Tier changed')).toBeTruthy();
    expect(screen.getByText('Pia Person is now a Member.')).toBeTruthy();

    refuse = true;
    openSelect(await screen.findByRole('combobox', { name: 'Tier for Pia Person' }));
    choose(await screen.findByRole('option', { name: 'Admin' }));
    expect(await screen.findByText('Failed to change tier')).toBeTruthy();
    expect(screen.getByText('Forbidden')).toBeTruthy();
  });

  it('blocking and unblocking confirm with a toast', async () => {
    let blocked: User[] = [];
    renderSettings({
      user: me('free'),
      ownerClaimed: true,
      override: (method, path) => {
        if (path === '/api/blocked-users') return { status: 200, body: blocked };
        if (path !== '/api/users/pia/block') return undefined;
        blocked = method === 'POST' ? [pia] : [];
        return { status: 200, body: { message: 'ok' } };
      },
    });
    openSelect(await screen.findByRole('combobox', { name: 'Block a user' }));
    choose(await screen.findByRole('option', { name: 'Pia Person' }));
    fireEvent.click(screen.getByRole('button', { name: 'Block' }));
    expect(await screen.findByText('Pia Person blocked')).toBeTruthy();

    fireEvent.click(await screen.findByRole('button', { name: 'Unblock Pia Person' }));
    expect(await screen.findByText('Pia Person unblocked')).toBeTruthy();
  });
});
