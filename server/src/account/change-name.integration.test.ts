import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelMember } from '../../../protocol/channels.js';
import type { User } from '../../../protocol/user.js';
import { upsertUserFromClaims } from '../auth/user-accounts.js';
import { addToChannel, body, createChannel, setTier, signIn, signInOwner, type Person } from '../testing/people.js';
import { signInBuiltIn, TestClient } from '../testing/http-client.js';
import { testDatabases } from '../testing/test-databases.js';
import { changeOwnName } from './change-name.js';
import { TestSocket } from '../testing/test-socket.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

describe.each(testDatabases())('changing one’s own name on $name', (database) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  const rename = (person: Person | TestClient, json: unknown) =>
    ('client' in person ? person.client : person).request('/api/account/name', { method: 'PUT', json });
  const me = async (person: Person) => body<User>(await person.client.request('/api/auth/user'));

  it('sets both names, trimmed; channel members and the user see the new display name', async () => {
    const owner = await signInOwner(server, 'Olive Owner', 'olive-name@example.com');
    const nora = await signIn(server, 'Nora Before', 'nora-name@example.com');
    await setTier(owner, nora, 'admin');
    const mate = await signIn(server, 'Mate Member', 'mate-name@example.com');
    const channelId = await createChannel(nora, 'Name Room');
    await addToChannel(nora, channelId, mate);

    const changed = await rename(nora, { firstName: '  Nora ', lastName: ' Newname  ' });
    expect(changed.status).toBe(200);
    expect(await body<User>(changed)).toMatchObject({ id: nora.id, firstName: 'Nora', lastName: 'Newname' });
    expect(await me(nora)).toMatchObject({ firstName: 'Nora', lastName: 'Newname' });

    const members = await body<ChannelMember[]>(await mate.client.request(`/api/channels/${channelId}/members`));
    expect(members.find((member) => member.id === nora.id)?.name).toBe('Nora Newname');
  });

  it('tells the user’s other devices at once, and a later sign-in keeps the chosen name', async () => {
    const pat = await signIn(server, 'Pat Provider', 'pat-name@example.com');
    const otherDevice = await TestSocket.open(pat.client);
    const told = otherDevice.next<{ type: string }>((message) => message.type === 'account_changed');
    expect((await rename(pat, { firstName: 'Patricia', lastName: 'Chosen' })).status).toBe(200);
    await told;
    await otherDevice.close();

    // Signing in again (a new browser) goes through the provider's claims: the chosen name stays.
    const again = new TestClient(server.baseUrl);
    await signInBuiltIn(again, { name: 'Pat Provider', email: 'pat-name@example.com' });
    const user = await body<User>(await again.request('/api/auth/user'));
    expect(user).toMatchObject({ firstName: 'Patricia', lastName: 'Chosen' });
  });

  it('keeps the chosen name when an external provider signs the user in again with its own names', async () => {
    const db = server.database.db;
    const issuer = 'https://accounts.example.org';
    const first = await upsertUserFromClaims(db, issuer, { sub: 'ext-1', given_name: 'Ext', family_name: 'Provided' }, []);
    expect(first).toMatchObject({ firstName: 'Ext', lastName: 'Provided' });
    await changeOwnName(db, first, { firstName: 'Chosen', lastName: 'ByMe' });
    const again = await upsertUserFromClaims(db, issuer, { sub: 'ext-1', given_name: 'Ext', family_name: 'Provided' }, []);
    expect(again).toMatchObject({ id: first.id, firstName: 'Chosen', lastName: 'ByMe' });
  });

  it('refuses empty, invisible, too long and control-character names and guests, changing nothing', async () => {
    const quin = await signIn(server, 'Quin Keeps', 'quin-name@example.com');
    const refused: [unknown, string][] = [
      [{ firstName: '   ', lastName: 'Keeps' }, 'First name cannot be empty'],
      [{ firstName: 'Quin', lastName: '\u200b\u200b' }, 'Last name cannot be empty'],
      [{ firstName: 'Q'.repeat(65), lastName: 'Keeps' }, 'First name must be at most 64 characters'],
      [{ firstName: 'Quin\u0007', lastName: 'Keeps' }, 'First name must not contain control characters'],
      [{ firstName: 'Quin' }, ''],
    ];
    for (const [json, message] of refused) {
      const response = await rename(quin, json);
      expect(response.status).toBe(400);
      expect((await body<{ message: string }>(response)).message).toContain(message);
    }
    expect((await rename(new TestClient(server.baseUrl), { firstName: 'Guest', lastName: 'Person' })).status).toBe(401);
    expect(await me(quin)).toMatchObject({ firstName: 'Quin', lastName: 'Keeps' });
  });
});
