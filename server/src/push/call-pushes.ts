import { pushTapUrl } from '../../../protocol/push.js';
import type { CallPushes, PushedCall } from '../calls/call-service.js';
import { displayName } from '../../../protocol/user.js';
import type { Database } from '../db/database.js';
import { findUserById } from '../users/user-directory.js';
import type { PushNotifier } from './push-notifier.js';
import { clip, pushTag, pushTopic } from './push-texts.js';

/** The call pushes, through the notifier (preference "calls"; nothing from someone the receiver blocked). */
export function callPushes(notifier: Pick<PushNotifier, 'notify'>, db: Database): CallPushes {
  const nameOf = async (userId: string) => {
    const user = await findUserById(db, userId);
    return user ? displayName(user) : null;
  };
  const send = (call: PushedCall, kind: 'call' | 'missed-call') => {
    const tag = pushTag('call', call.id);
    const ringing = kind === 'call';
    notifier.notify([call.receiverId], {
      key: `${kind}:${call.id}`,
      preference: 'calls',
      actorId: call.callerId,
      delivery: ringing
        ? { ttlSeconds: 30, urgency: 'high', topic: pushTopic(tag) }
        : { ttlSeconds: 24 * 3600, urgency: 'normal', topic: pushTopic(tag) },
      payload: async () => {
        const name = await nameOf(call.callerId);
        if (name === null) return null;
        const url = pushTapUrl.call(call.id);
        return ringing
          ? { kind, title: 'Incoming call', body: clip(`${name} is calling`, 500), tag, url }
          : { kind, title: clip(`Missed call from ${name}`, 200), body: '', tag, url };
      },
    });
  };
  return { ringing: (call) => send(call, 'call'), missed: (call) => send(call, 'missed-call') };
}
