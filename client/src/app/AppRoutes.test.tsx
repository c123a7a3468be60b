import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, render, screen } from '@testing-library/react';
import type { ServerConfig } from '../../../protocol/server-config';
import type { User } from '../../../protocol/user';
import { createQueryClient } from '../lib/query-client';
import { AppRoutes } from './AppRoutes';
import { Providers } from './Providers';

const ADA: User = {
  id: 'u1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  profileImageUrl: null,
  subscriptionTier: 'free',
};

const BILLED_WITH_LEGAL_PAGES: ServerConfig = {
  billing: true,
  termsUrl: 'https://example.com/terms',
  privacyUrl: 'https://example.com/privacy',
};

/** Answers `GET /api/auth/user` and `GET /api/config` at the network edge (global fetch). */
function authUserAnswers(answer: () => Promise<Response>, config: ServerConfig = BILLED_WITH_LEGAL_PAGES): void {
  vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
    const url = input instanceof Request ? input.url : input.toString();
    if (url === '/api/auth/user') return answer();
    if (url === '/api/config') return Promise.resolve(Response.json(config));
    return Promise.resolve(new Response('Not Found', { status: 404 }));
  });
}

const signedOut = () =>
  authUserAnswers(() =>
    Promise.resolve(Response.json({ message: 'Unauthorized' }, { status: 401 })),
  );
const signedIn = () => authUserAnswers(() => Promise.resolve(Response.json(ADA)));

function renderAt(path: string) {
  window.history.replaceState(null, '', path);
  return render(
    <Providers queryClient={createQueryClient()}>
      <AppRoutes />
    </Providers>,
  );
}

// The top bar's tooltips load Radix's tooltip just after the screen renders; its first import in
// jsdom is slow enough to starve a test's 5 s, so it is imported once up front.
beforeAll(() => import('../ui/Tooltip'), 30_000);

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  // Screens load their code on demand; the first import of each takes a while in jsdom.
  configure({ asyncUtilTimeout: 5000 });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('signed out', () => {
  it.each(['/', '/settings', '/upgrade'])('shows the sign-in landing on %s', async (path) => {
    signedOut();
    renderAt(path);
    expect(await screen.findByRole('button', { name: 'Continue to Sign In' })).toBeTruthy();
    expect(screen.getByText('Welcome to Chirp')).toBeTruthy();
    expect(screen.getByText('Instant voice channels')).toBeTruthy();
    expect(screen.getByText('Secure authentication')).toBeTruthy();
    expect(screen.getByText('Real-time presence')).toBeTruthy();
    expect((await screen.findByRole('link', { name: 'Terms of Service' })).getAttribute('href')).toBe(
      'https://example.com/terms',
    );
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('https://example.com/privacy');
    expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull();
  });

  it('shows the Redirecting screen after Continue to Sign In', async () => {
    signedOut();
    renderAt('/');
    fireEvent.click(await screen.findByRole('button', { name: 'Continue to Sign In' }));
    expect(screen.getByText('Connecting…')).toBeTruthy();
    expect(screen.getByText('Redirecting to sign in…')).toBeTruthy();
  });

  it.each([
    ['a server error', () => Promise.resolve(new Response('boom', { status: 500 }))],
    ['a missing endpoint', () => Promise.resolve(new Response('', { status: 404 }))],
  ])('treats %s of the user call as signed out', async (_name, answer) => {
    authUserAnswers(answer);
    renderAt('/');
    expect(await screen.findByRole('button', { name: 'Continue to Sign In' })).toBeTruthy();
  });

  it('shows the offline state, not the landing, when the server cannot be reached at all', async () => {
    authUserAnswers(() => Promise.reject(new TypeError('Failed to fetch')));
    renderAt('/');
    expect(await screen.findByRole('heading', { name: 'You are offline' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Continue to Sign In' })).toBeNull();
  });
});

describe('any other route', () => {
  it('shows 404 Page Not Found when signed out', async () => {
    signedOut();
    renderAt('/no/such/page');
    expect(await screen.findByText('404 Page Not Found')).toBeTruthy();
  });

  it('shows 404 Page Not Found when signed in', async () => {
    signedIn();
    renderAt('/channels');
    expect(await screen.findByText('404 Page Not Found')).toBeTruthy();
  });
});

describe('while the user loads', () => {
  it('shows Loading', () => {
    authUserAnswers(() => new Promise<Response>(() => undefined));
    renderAt('/');
    expect(screen.getByText('Loading')).toBeTruthy();
    expect(screen.getByRole('status')).toBeTruthy();
  });
});

describe('signed in', () => {
  it('shows the main screen with the top bar', async () => {
    signedIn();
    renderAt('/');
    // Not the Share/Invite toast's "No channel selected": the heading reads as its own message.
    expect(
      await screen.findByRole('heading', { name: 'You are not in a channel yet' }),
    ).toBeTruthy();
    expect(screen.queryByText('No channel selected')).toBeNull();
    expect(screen.getByText('Chirp')).toBeTruthy();
    for (const name of ['Contacts', 'Channels', 'Share', 'Settings', 'Logout']) {
      expect(screen.getByRole('button', { name })).toBeTruthy();
    }
  });

  it('goes to Settings and Back', async () => {
    signedIn();
    renderAt('/');
    fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeTruthy();
    expect(window.location.pathname).toBe('/settings');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(
      await screen.findByRole('heading', { name: 'You are not in a channel yet' }),
    ).toBeTruthy();
  });

  it('shows the Upgrade screen', async () => {
    signedIn();
    renderAt('/upgrade');
    expect(await screen.findByRole('heading', { name: 'Upgrade' })).toBeTruthy();
    expect(await screen.findByText('Member')).toBeTruthy();
  });

  it('offers no plans and no upgrade buttons on a server without billing', async () => {
    const familyServer = { ...BILLED_WITH_LEGAL_PAGES, billing: false };
    authUserAnswers(() => Promise.resolve(Response.json(ADA)), familyServer);
    renderAt('/upgrade');
    expect(await screen.findByText(/This server has no paid plans/)).toBeTruthy();
    expect(screen.queryByText('Member')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
    expect(await screen.findByText('Free Tier')).toBeTruthy();
    // Channel creation is told about in Settings' Channels section.
    fireEvent.mouseDown(await screen.findByRole('tab', { name: 'Channels' }));
    expect(await screen.findByText(/Ask the owner of this server to make you an admin/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Upgrade/ })).toBeNull();
  });

  it('offers the upgrade in Settings on a server with billing', async () => {
    signedIn();
    renderAt('/settings');
    expect(await screen.findByRole('button', { name: 'Upgrade' })).toBeTruthy();
    fireEvent.mouseDown(await screen.findByRole('tab', { name: 'Channels' }));
    expect(await screen.findByRole('button', { name: 'Upgrade to create channels' })).toBeTruthy();
  });
});
