import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberUpdate } from '../../../protocol/sockets.js';
import {
  addToChannel,
  createChannel,
  setTier,
  signIn,
  signInOwner,
  startConversation,
  type Person,
} from '../testing/people.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { TestSocket } from '../testing/test-socket.js';

/**
 * A member_update goes out only when what the channel's viewers see changes. Messages
 * that change nothing visible — a second join, talking while already talking, one device of a
 * member starting while another already talks — push nothing.
 */
describe.each(testDatabases())('member updates on $name', (database) => {
  let server: TestServer;
  let owner: Person;
  let bea: Person;
  let channelId: number;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    const superadmin = await signInOwner(server, 'Sue Super', 'sue@example.com');
    owner = await signIn(server, 'Olive Owner', 'olive@example.com');
    bea = await signIn(server, 'Bea Member', 'bea@example.com');
    await setTier(superadmin, owner, 'admin');
    channelId = await createChannel(owner, 'Quiet');
    await addToChannel(owner, channelId, bea);
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  const beaUpdates = (socket: TestSocket) =>
    (socket.received as MemberUpdate[]).filter(
      (m) => m.type === 'member_update' && m.member.id === bea.id,
    );
  const talking = (value: boolean) => (m: MemberUpdate) =>
    m.type === 'member_update' && m.member.id === bea.id && m.member.isTalking === value;

  it('pushes only the changes the channel can see', async () => {
    const watcher = await TestSocket.open(owner.client);
    watcher.send({ type: 'join_channel', channelId });
    await watcher.next<MemberUpdate>((m) => m.type === 'member_update' && m.member.id === owner.id);

    const laptop = await TestSocket.open(bea.client);
    laptop.send({ type: 'join_channel', channelId });
    await watcher.next<MemberUpdate>((m) => m.member?.id === bea.id && m.member.isActiveInChannel);
    laptop.send({ type: 'start_talking', channelId });
    await watcher.next(talking(true));
    watcher.clear();

    // Nothing here changes Bea's card as others see it; the stop then does.
    laptop.send({ type: 'join_channel', channelId });
    laptop.send({ type: 'start_talking', channelId });
    laptop.send({ type: 'stop_talking', channelId });
    await watcher.next(talking(false));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(beaUpdates(watcher).map((m) => m.member.isTalking)).toEqual([false]);

    // A second device joining, talking and stopping while the laptop talks changes nothing either.
    laptop.send({ type: 'start_talking', channelId });
    await watcher.next(talking(true));
    watcher.clear();
    const phone = await TestSocket.open(bea.client);
    phone.send({ type: 'join_channel', channelId });
    phone.send({ type: 'start_talking', channelId });
    phone.send({ type: 'stop_talking', channelId });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await phone.close();
    laptop.send({ type: 'stop_talking', channelId });
    await watcher.next(talking(false));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Each device's messages are in order, but the two devices race: if the phone's were still
    // queued behind the laptop's stop, a true and a false more may show — not one per message.
    const seen = beaUpdates(watcher).map((m) => m.member.isTalking);
    expect(seen.at(-1)).toBe(false);
    expect(seen.length).toBeLessThanOrEqual(3);

    await laptop.close();
    await watcher.next<MemberUpdate>((m) => m.member?.id === bea.id && !m.member.isOnline);
    await watcher.close();
  });

  it('shows a member offline in a channel they gained while online: added, created, a conversation or an invite', async () => {
    const cal = await signIn(server, 'Cal Watcher', 'cal@example.com');
    const offlineIn = (socket: TestSocket, person: Person, channel: number) =>
      socket.next<MemberUpdate>(
        (m) =>
          m.type === 'member_update' &&
          m.channelId === channel &&
          m.member.id === person.id &&
          !m.member.isOnline,
      );
    // Both are online before they gain the channel, so their channels were read without it.
    const beaWs = await TestSocket.open(bea.client);
    const ownerWs = await TestSocket.open(owner.client);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const later = await createChannel(owner, 'Later');
    await addToChannel(owner, later, bea);
    await addToChannel(owner, later, cal);
    const calWs = await TestSocket.open(cal.client);
    calWs.send({ type: 'join_channel', channelId: later });
    await calWs.next<MemberUpdate>((m) => m.type === 'member_update' && m.member.id === cal.id);

    await beaWs.close();
    await offlineIn(calWs, bea, later);
    await ownerWs.close();
    await offlineIn(calWs, owner, later);

    const beaAgain = await TestSocket.open(bea.client);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const direct = await startConversation(cal, bea);
    calWs.send({ type: 'join_channel', channelId: direct });
    await calWs.next<MemberUpdate>(
      (m) => m.type === 'member_update' && m.channelId === direct && m.member.id === cal.id,
    );
    await beaAgain.close();
    await offlineIn(calWs, bea, direct);

    // By an invite link.
    const dan = await signIn(server, 'Dan Invited', 'dan@example.com');
    const danWs = await TestSocket.open(dan.client);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const generated = await owner.client.request('/api/invite/generate', {
      method: 'POST',
      json: { channelId: later },
    });
    const token = new URL(
      ((await generated.json()) as { inviteUrl: string }).inviteUrl,
    ).searchParams.get('invite');
    const accepted = await dan.client.request('/api/invite/accept', {
      method: 'POST',
      json: { token },
    });
    expect(accepted.status).toBe(200);
    await danWs.close();
    await offlineIn(calWs, dan, later);
    await calWs.close();
  });
});
