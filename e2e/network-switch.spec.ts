import type { Page, Request } from '@playwright/test';
import { newPerson } from './support/accounts';
import { expect, test } from './support/fixtures';
import { startImpairmentRelay, type ImpairmentRelay } from './support/network/impairment-relay';
import {
  heardAgainAt,
  logSignalling,
  openRouted,
  switchNetwork,
  watchReturn,
} from './support/network/network-switch';
import { AUDIBLE, channelWith, goOnline, levelFrom, open, userId } from './support/voice-audio';

/**
 * A phone that hops from Wi-Fi to mobile data mid-conversation (issue 28, "a changing network").
 * The talker's WebRTC runs through a user-space relay; the switch moves the relay link, so the old
 * path silently drops everything, and the browser sees its network go and come back. The voice must
 * come back by an ICE restart on the same connection: no new join on the voice server, no second
 * usage session, no second peer connection for a call. The time it takes is the bench's to print
 * (`bench/networks/network-switch.bench.ts`).
 */

test.describe.configure({ timeout: 120_000 });

let relay: ImpairmentRelay;
test.beforeEach(() => {
  relay = startImpairmentRelay();
});
test.afterEach(async () => {
  await relay.close();
});

const LINK = 'phone';

/** Requests the page makes to open a usage session (the client's metered voice connection). */
function usageStarts(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/usage/session/start'))
      seen.push(request);
  });
  return seen;
}

test('built-in SFU: after a network switch the listener hears the talker again, without a rejoin', async ({
  browser,
  baseURL,
}) => {
  const talker = await openRouted(browser, newPerson('Tala'), relay, LINK);
  const listener = await open(browser, newPerson('Lee'), 'tone');
  const listenerSignalling = logSignalling(listener.page);
  await channelWith(browser, baseURL!, [talker, listener]);
  const talkerId = await userId(talker.page);
  const talkerUsage = usageStarts(talker.page);

  await goOnline(talker.page);
  await goOnline(listener.page);
  for (const { page } of [talker, listener])
    await expect(page.getByText('Voice Ready', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect
    .poll(() => levelFrom(listener.page, talkerId), { timeout: 15_000 })
    .toBeGreaterThan(AUDIBLE);
  // Everything the talker sends crosses the relay: there is no other path.
  expect(relay.counters(LINK).up.packets).toBeGreaterThan(20);
  const joinsBefore = talker.signalling.sent.filter((type) => type === 'join').length;
  expect(joinsBefore).toBe(1);

  await watchReturn(listener.page, { channelMember: talkerId }, AUDIBLE);
  const oldPorts = relay.ports(LINK);
  await switchNetwork(talker.context, relay, LINK);
  expect(relay.ports(LINK)).toEqual([]);

  await expect.poll(() => heardAgainAt(listener.page), { timeout: 20_000 }).not.toBeNull();
  // It came back on a new path of the relay (the old ports are dead), by an ICE restart…
  expect(relay.ports(LINK).length).toBeGreaterThan(0);
  expect(relay.ports(LINK)).not.toEqual(oldPorts);
  expect(talker.signalling.sent).toContain('restart_ice');
  // …on the same session: no second join, the listener never saw the talker leave, one usage session.
  expect(talker.signalling.sent.filter((type) => type === 'join')).toHaveLength(1);
  expect(talker.signalling.sent).not.toContain('resume');
  expect(listenerSignalling.received).not.toContain('participant_left');
  expect(talkerUsage).toHaveLength(1);
  await expect(talker.page.getByText('Voice Ready', { exact: true })).toBeVisible();

  for (const user of [talker, listener]) await user.context.close();
});
