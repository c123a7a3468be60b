import { pushTapUrl } from '../../../protocol/push.js';
import { sosPushBody, sosTitle } from '../../../protocol/sos.js';
import type { PushNotifier } from './push-notifier.js';
import { clip, pushTopic } from './push-texts.js';

/** What raising an SOS tells the devices of the channel's members (decision 050). */
export interface SosPushes {
  /** A new alert: every recipient but its sender is pushed, whatever their preferences or blocks. */
  raised(
    alert: { id: string; channelName: string; sender: { id: string; name: string } },
    recipientIds: readonly string[],
  ): void;
}

/**
 * "SOS from <name>", "<channel> · tap to see where and listen": Web Push urgency high (the push
 * service wakes a sleeping phone for it), kept an hour for an unreachable device, one notification
 * per alert (`sos-<id>`, which also collapses a retry). No preference switch turns it off and a
 * block does not hold it back (decision 051); a device with Chirp visible has the socket alert.
 */
export function sosPushes(notifier: Pick<PushNotifier, 'notify'>): SosPushes {
  return {
    raised(alert, recipientIds) {
      const tag = `sos-${alert.id}`;
      notifier.notify(recipientIds, {
        key: `sos:${alert.id}`,
        preference: null,
        throughBlocks: true,
        actorId: alert.sender.id,
        delivery: { ttlSeconds: 3600, urgency: 'high', topic: pushTopic(tag) },
        payload: () => ({
          kind: 'sos',
          title: clip(sosTitle(alert.sender.name), 200),
          body: clip(sosPushBody(alert.channelName), 500),
          tag,
          url: pushTapUrl.sos(alert.id),
        }),
      });
    },
  };
}
