import type { Agent } from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { PushPayload } from '../../../protocol/push.js';
import type { Database } from '../db/database.js';
import { deleteSubscriptionById, markSubscriptionUsed, subscriptionsOf, type PushSubscriptionRow } from './push-store.js';
import type { VapidKeys } from './vapid-keys.js';

/** How a push service should treat one message (RFC 8030 §5.2-5.4). */
export interface PushDelivery {
  /** Seconds the push service keeps it for an unreachable device; 0 = now or never. */
  ttlSeconds: number;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
  /** A newer message with the same topic replaces an undelivered older one (base64url, at most 32). */
  topic?: string;
}

/** `sent`: the push service took it; `gone`: it said the device unsubscribed (the row is deleted). */
export type PushOutcome = 'sent' | 'gone' | 'failed';

export interface PushSenderOptions {
  db: Database;
  keys: VapidKeys;
  subject: string;
  log: FastifyBaseLogger;
  /** The HTTPS agent for push services (tests trust their local push service's certificate here). */
  agent?: Agent | undefined;
  /** A push service that does not answer within this is given up on (socket idle time). */
  timeoutMs?: number;
}

/**
 * Sends Web Push messages with `web-push`: the payload is encrypted to the device (RFC 8291,
 * aes128gcm) and the request signed with the server's VAPID keys (RFC 8292). The payload holds only
 * what the notification shows. A 404 or 410 from the push service deletes that one subscription.
 */
export class PushSender {
  constructor(private readonly options: PushSenderOptions) {}

  get publicKey(): string {
    return this.options.keys.publicKey;
  }

  /**
   * Sends one message to every device the user has notifications on, all at once; what each push
   * service answered, per subscription id. Features that push (calls, pokes, transmissions) call this.
   */
  async sendToUser(userId: string, payload: PushPayload, delivery: PushDelivery): Promise<Map<number, PushOutcome>> {
    const devices = await subscriptionsOf(this.options.db, userId);
    const outcomes = await Promise.all(devices.map((device) => this.send(device, payload, delivery)));
    return new Map(devices.map((device, i) => [device.id, outcomes[i]!]));
  }

  async send(subscription: PushSubscriptionRow, payload: PushPayload, delivery: PushDelivery): Promise<PushOutcome> {
    const { db, keys, subject, log, agent, timeoutMs } = this.options;
    try {
      await webpush.sendNotification(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        JSON.stringify(payload),
        {
          vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
          TTL: delivery.ttlSeconds,
          urgency: delivery.urgency,
          ...(delivery.topic === undefined ? {} : { topic: delivery.topic }),
          contentEncoding: 'aes128gcm',
          timeout: timeoutMs ?? 10_000,
          ...(agent === undefined ? {} : { agent }),
        },
      );
      await markSubscriptionUsed(db, subscription.id);
      return 'sent';
    } catch (error) {
      // The endpoint is a capability to push to the device: only its host goes to the log.
      const pushService = new URL(subscription.endpoint).host;
      if (error instanceof webpush.WebPushError && (error.statusCode === 404 || error.statusCode === 410)) {
        await deleteSubscriptionById(db, subscription.id);
        log.info({ pushService, status: error.statusCode, subscription: subscription.id }, 'push subscription gone; deleted');
        return 'gone';
      }
      const status = error instanceof webpush.WebPushError ? error.statusCode : undefined;
      const cause = error instanceof Error ? error.message.replace(subscription.endpoint, '<endpoint>') : String(error);
      log.warn({ pushService, status, subscription: subscription.id, cause }, 'push not delivered');
      return 'failed';
    }
  }
}
