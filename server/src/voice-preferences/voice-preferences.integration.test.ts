import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VoicePreferences } from '../../../protocol/voice-preferences.js';
import { body, signIn, type Person } from '../testing/people.js';
import { memberVolumes } from '../db/schema.js';
import { isForeignKeyViolation, writeMemberVolume } from './voice-preferences-store.js';
import { testDatabases } from '../testing/test-databases.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

describe.each(testDatabases())('voice preferences on $name', (database) => {
  let server: TestServer;
  let ann: Person, bob: Person, cat: Person;

  beforeAll(async () => {
    server = await startTestServer(await database.open());
    ann = await signIn(server, 'Ann A', 'ann@example.com');
    bob = await signIn(server, 'Bob B', 'bob@example.com');
    cat = await signIn(server, 'Cat C', 'cat@example.com');
  });
  afterAll(async () => {
    await server.close();
    await server.database.close();
  });

  const preferencesOf = async (person: Person) =>
    body<VoicePreferences>(await person.client.request('/api/voice-preferences'));
  const setVolume = (person: Person, memberId: string, volume: unknown) =>
    person.client.request(`/api/voice-preferences/member-volumes/${encodeURIComponent(memberId)}`, {
      method: 'PUT',
      json: { volume },
    });
  const setRogerBeep = (person: Person, json: unknown) =>
    person.client.request('/api/voice-preferences', { method: 'PATCH', json });

  it('start at the defaults: roger beep off, everyone at 100 %', async () => {
    expect(await preferencesOf(ann)).toEqual({ rogerBeep: false, memberVolumes: {} });
  });

  it('keep a volume per (listener, member), for that listener only', async () => {
    expect(await body(await setVolume(ann, bob.id, 0))).toEqual({ memberId: bob.id, volume: 0 });
    expect((await setVolume(ann, cat.id, 200)).status).toBe(200);
    expect((await setVolume(ann, bob.id, 35)).status).toBe(200);
    expect(await preferencesOf(ann)).toEqual({
      rogerBeep: false,
      memberVolumes: { [bob.id]: 35, [cat.id]: 200 },
    });
    // Bob's own view is untouched: Ann's choices are hers.
    expect(await preferencesOf(bob)).toEqual({ rogerBeep: false, memberVolumes: {} });
  });

  it('follow the user to another device (a second sign-in)', async () => {
    // signIn opens a fresh cookie jar: a new session, as on another device.
    const again = await signIn(server, 'Ann A', 'ann@example.com');
    expect(again.id).toBe(ann.id);
    expect((await preferencesOf(again)).memberVolumes[bob.id]).toBe(35);
  });

  it('forget a volume set back to 100 % (no row kept)', async () => {
    expect((await setVolume(ann, cat.id, 100)).status).toBe(200);
    expect((await preferencesOf(ann)).memberVolumes).toEqual({ [bob.id]: 35 });
    const rows = await server.database.db
      .select()
      .from(memberVolumes)
      .where(and(eq(memberVolumes.listenerId, ann.id), eq(memberVolumes.memberId, cat.id)));
    expect(rows).toEqual([]);
  });

  it('refuse volumes outside 0-200 %, fractions, extra fields, oneself and unknown users', async () => {
    for (const volume of [-1, 201, 50.5, '50', null]) {
      expect((await setVolume(ann, bob.id, volume)).status).toBe(400);
    }
    const extra = await ann.client.request(`/api/voice-preferences/member-volumes/${bob.id}`, {
      method: 'PUT',
      json: { volume: 50, listenerId: bob.id },
    });
    expect(extra.status).toBe(400);
    expect((await setVolume(ann, ann.id, 50)).status).toBe(400);
    expect((await setVolume(ann, 'no-such-user', 50)).status).toBe(404);
    expect((await preferencesOf(ann)).memberVolumes).toEqual({ [bob.id]: 35 });
  });

  it('recognise a member deleted between the check and the write (the route answers 404)', async () => {
    const write = writeMemberVolume(server.database.db, ann.id, 'deleted-meanwhile', 50);
    await expect(write).rejects.toSatisfy(isForeignKeyViolation);
  });

  it('switch the roger beep on and off', async () => {
    const on = await setRogerBeep(ann, { rogerBeep: true });
    expect(on.status).toBe(200);
    expect(await body(on)).toEqual({ rogerBeep: true, memberVolumes: { [bob.id]: 35 } });
    expect((await preferencesOf(bob)).rogerBeep).toBe(false);
    expect((await setRogerBeep(ann, { rogerBeep: 'yes' })).status).toBe(400);
    expect((await setRogerBeep(ann, { rogerBeep: true, userId: bob.id })).status).toBe(400);
    expect((await setRogerBeep(ann, { rogerBeep: false })).status).toBe(200);
    expect((await preferencesOf(ann)).rogerBeep).toBe(false);
  });

  it('go with the account: a deleted member leaves no volume behind', async () => {
    expect((await setVolume(bob, cat.id, 150)).status).toBe(200);
    const deleted = await cat.client.request('/api/account', {
      method: 'DELETE',
      json: { password: 'correct horse battery' },
    });
    expect(deleted.status).toBeLessThan(300);
    expect((await preferencesOf(bob)).memberVolumes).toEqual({});
  });
});
