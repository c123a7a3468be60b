import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../../protocol/api-paths.js';
import {
  PUSH_NOT_SUBSCRIBED_MESSAGE,
  PUSH_SUBSCRIBED_MESSAGE,
  PUSH_TEST_SENT_MESSAGE,
  PUSH_TESTS_PER_HOUR,
  PUSH_UNSUBSCRIBED_MESSAGE,
  pushEndpointBodySchema,
  pushSubscribeBodySchema,
  type PushPublicKey,
} from '../../../protocol/push.js';
import type { MessageResponse } from '../../../protocol/responses.js';
import { currentSession } from '../auth/require-user.js';
import { HttpError, notFound, tooManyRequests, unauthorized } from '../http/errors.js';
import { findSubscription, removeSubscription, saveSubscription } from './push-store.js';

/** A test notification: says the device is set up, opens the settings where it was turned on. */
const TEST_PAYLOAD = {
  kind: 'test',
  title: 'Chirp',
  body: 'Notifications work on this device',
  tag: 'chirp-test',
  url: '/settings',
} as const;

export function registerPushRoutes(app: FastifyInstance): void {
  const { ctx } = app;
  const db = ctx.database.db;

  app.get(API_PATHS.pushPublicKey, async () => ({ publicKey: ctx.push.publicKey }) satisfies PushPublicKey);

  /** This device's subscription, for the signed-in user and this sign-in session (logout removes it). */
  app.post(API_PATHS.pushSubscribe, async (request) => {
    const { endpoint, keys } = pushSubscribeBodySchema.parse(request.body);
    const session = await currentSession(request);
    if (!session) throw unauthorized();
    await saveSubscription(db, { userId: session.user.id, sessionId: session.sessionId, endpoint, ...keys });
    return { message: PUSH_SUBSCRIBED_MESSAGE } satisfies MessageResponse;
  });

  app.post(API_PATHS.pushUnsubscribe, async (request) => {
    const { endpoint } = pushEndpointBodySchema.parse(request.body);
    const session = await currentSession(request);
    if (!session) throw unauthorized();
    await removeSubscription(db, session.user.id, endpoint);
    return { message: PUSH_UNSUBSCRIBED_MESSAGE } satisfies MessageResponse;
  });

  /** Sends the caller's own device a test notification, through its push service, now. */
  app.post(API_PATHS.pushTest, async (request) => {
    const { endpoint } = pushEndpointBodySchema.parse(request.body);
    const session = await currentSession(request);
    if (!session) throw unauthorized();
    const subscription = await findSubscription(db, session.user.id, endpoint);
    if (!subscription) throw notFound(PUSH_NOT_SUBSCRIBED_MESSAGE);
    const sent = await ctx.counters.counter('push-test', 3600).penalty(session.user.id);
    if (sent.consumedPoints > PUSH_TESTS_PER_HOUR) throw tooManyRequests('Too many test notifications for now. Try again later.');
    const outcome = await ctx.push.send(subscription, TEST_PAYLOAD, { ttlSeconds: 60, urgency: 'normal', topic: 'chirp-test' });
    if (outcome === 'gone') throw notFound(PUSH_NOT_SUBSCRIBED_MESSAGE);
    if (outcome === 'failed') throw new HttpError(502, 'The notification service did not take the test notification. Try again later.');
    return { message: PUSH_TEST_SENT_MESSAGE } satisfies MessageResponse;
  });
}
