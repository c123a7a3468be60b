import { randomBytes, randomUUID } from 'node:crypto';
import { RoomServiceClient } from 'livekit-server-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../config/config.js';
import { parseEnv } from '../../config/env.js';
import { createVoiceToken } from '../voice-token.js';
import { LiveKitSubscriber } from './livekit-subscriber.js';
import { livekitHttpUrl } from './livekit-rooms.js';
import { livekitUserRemoval } from './livekit-user-removal.js';

const livekitUrl = process.env.TEST_LIVEKIT_URL;
const apiKey = process.env.TEST_LIVEKIT_API_KEY ?? '';
const apiSecret = process.env.TEST_LIVEKIT_API_SECRET ?? '';

const configFor = (env: Record<string, string>) =>
  resolveConfig(parseEnv({ DATA_DIR: '/tmp/chirp-lk', ...env }));

describe('removing a signed-out user from LiveKit', () => {
  it('is nothing to do when LiveKit does not carry the audio', () => {
    expect(livekitUserRemoval(configFor({}))).toBeUndefined();
  });
});

/**
 * Against the shared dev LiveKit, in rooms of random prefixes: a user whose sign-in ended leaves
 * every room of this deployment, and nobody else leaves, in no other deployment's room.
 */
describe.runIf(livekitUrl)('removing a signed-out user from a real LiveKit', () => {
  const prefix = `t${randomBytes(3).toString('hex')}-`;
  const otherPrefix = `u${randomBytes(3).toString('hex')}-`;
  const subscribers: LiveKitSubscriber[] = [];
  const rooms = () => new RoomServiceClient(livekitHttpUrl(livekitUrl!), apiKey, apiSecret);
  afterEach(async () => {
    await Promise.all(subscribers.splice(0).map((s) => s.close()));
  });

  const joinAs = async (userId: string, roomName: string) => {
    // Rooms are made by the app, never by a join (`room.auto_create: false`, as shipped).
    await rooms().createRoom({ name: roomName });
    const { token, identity } = await createVoiceToken({
      apiKey,
      apiSecret,
      channelId: 0,
      roomName,
      userId,
      userName: userId,
      adminMuted: false,
    });
    const subscriber = await LiveKitSubscriber.join(livekitUrl!, token, () => undefined, () => undefined);
    subscribers.push(subscriber);
    return identity;
  };
  const listed = async (roomName: string) =>
    (await rooms().listParticipants(roomName)).map((p) => p.identity).sort();

  it("removes every participant of the user from this deployment's rooms only", async () => {
    const sam = randomUUID();
    const kim = randomUUID();
    const samIn1 = await joinAs(sam, `${prefix}1`);
    const samIn2 = await joinAs(sam, `${prefix}2`);
    const kimIn1 = await joinAs(kim, `${prefix}1`);
    const samElsewhere = await joinAs(sam, `${otherPrefix}1`);
    expect(await listed(`${prefix}1`)).toEqual([samIn1, kimIn1].sort());
    expect(await listed(`${prefix}2`)).toEqual([samIn2]);

    const remove = livekitUserRemoval(
      configFor({
        VOICE_PROVIDER: 'livekit',
        LIVEKIT_URL: livekitUrl!,
        LIVEKIT_API_KEY: apiKey,
        LIVEKIT_API_SECRET: apiSecret,
        LIVEKIT_ROOM_PREFIX: prefix,
      }),
    );
    expect(await remove!(sam)).toBe(2);
    expect(await listed(`${prefix}1`)).toEqual([kimIn1]);
    expect(await listed(`${prefix}2`)).toEqual([]);
    expect(await listed(`${otherPrefix}1`)).toEqual([samElsewhere]);
    // Nothing left to remove is not an error.
    expect(await remove!(sam)).toBe(0);
    for (const name of [`${prefix}1`, `${prefix}2`, `${otherPrefix}1`]) await rooms().deleteRoom(name);
  });
});
