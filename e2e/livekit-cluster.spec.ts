import type { Browser } from '@playwright/test';
import { RoomServiceClient } from 'livekit-server-sdk';
import { OWNER, newPerson, type Person } from './support/accounts';
import { expect, test, type SignedInUser, signInAndOpen } from './support/fixtures';
import {
  claimOwnership,
  startStack,
  type ChirpInstance,
  type Stack,
} from './support/multi-instance/stack';
import {
  AUDIBLE,
  goOnline,
  installMicrophone,
  levelFrom,
  userId,
  voiceReady,
} from './support/voice-audio';

/**
 * A LiveKit cluster: two nodes on one Redis, each Chirp instance pointed at a different node. Users
 * of both instances must land in one room (LiveKit routes a participant who signals to one node to
 * the node that hosts the room) and hear each other.
 */
test.describe.configure({ mode: 'serial' });

let stack: Stack;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  stack = await startStack({ livekitNodes: 2, behindNginx: false });
});
test.afterAll(async () => {
  await stack?.stop();
});

async function openOn(
  browser: Browser,
  instance: ChirpInstance,
  person: Person,
): Promise<SignedInUser> {
  const context = await browser.newContext({ baseURL: instance.url, permissions: ['microphone'] });
  await context.addInitScript(installMicrophone, 'tone' as const);
  const page = await context.newPage();
  await signInAndOpen(page, person);
  return { person, context, page };
}

test('users of two Chirp instances on two LiveKit nodes share one room and hear each other', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const [instanceA, instanceB] = stack.instances as [ChirpInstance, ChirpInstance];
  const owner = await openOn(browser, instanceA, OWNER);
  await claimOwnership(owner.page.request, instanceA);
  const a = await openOn(browser, instanceA, newPerson('Nia'));
  const b = await openOn(browser, instanceB, newPerson('Noor'));
  const created = await owner.page.request.post('/api/channels', {
    data: { name: 'Cluster' },
    headers: { origin: instanceA.url },
  });
  const { id: channelId } = (await created.json()) as { id: number };
  const [aId, bId] = [await userId(a.page), await userId(b.page)];
  for (const id of [aId, bId])
    expect(
      (
        await owner.page.request.post(`/api/channels/${channelId}/members`, {
          data: { userId: id },
          headers: { origin: instanceA.url },
        })
      ).ok(),
    ).toBe(true);
  await owner.context.close();
  for (const user of [a, b]) {
    await user.page.reload();
    await goOnline(user.page);
    await expect(voiceReady(user.page)).toBeVisible({ timeout: 20_000 });
  }
  // Each instance handed out its own node's address.
  const tokenUrl = async (user: SignedInUser) =>
    (
      (await (
        await user.page.request.post('/api/livekit-token', {
          data: { channelId, userId: await userId(user.page), userName: user.person.name },
          headers: { origin: new URL(user.page.url()).origin },
        })
      ).json()) as { url: string }
    ).url;
  expect(await tokenUrl(a)).toBe(stack.livekit[0]!.url);
  expect(await tokenUrl(b)).toBe(stack.livekit[1]!.url);

  await expect.poll(() => levelFrom(b.page, aId), { timeout: 20_000 }).toBeGreaterThan(AUDIBLE);
  await expect.poll(() => levelFrom(a.page, bId), { timeout: 20_000 }).toBeGreaterThan(AUDIBLE);
  // Both nodes see one room with both people in it.
  for (const node of stack.livekit) {
    const service = new RoomServiceClient(
      node.url.replace('ws://', 'http://'),
      stack.livekitKeys.apiKey,
      stack.livekitKeys.apiSecret,
    );
    const rooms = await service.listRooms();
    const ours = rooms.filter((r) => r.name.startsWith(stack.roomPrefix));
    expect(ours.map((r) => r.name)).toEqual([`${stack.roomPrefix}${channelId}`]);
    const identities = (await service.listParticipants(ours[0]!.name)).map((p) =>
      p.identity.split('-').slice(0, -2).join('-'),
    );
    expect(identities.sort()).toEqual([aId, bId].sort());
  }
  await a.context.close();
  await b.context.close();
});
