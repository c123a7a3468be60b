import { volumeToGain } from '../../../../protocol/voice-preferences';
import type { RemoteAudioOutput } from './remote-audio-gain';
import { REMOTE_AUDIO_CONTAINER_ID } from './transport/remote-audio';

/**
 * Who must not be heard (spec §6): the whole channel while Mute Channel is on, admin-muted users,
 * blocked users (DESIGN §3) and — belt and braces, the server never sends it — oneself. And how
 * loud everyone else plays for this listener (per-member volume in percent, 100 if unset).
 */
export type AudioPolicy = {
  channelMuted: boolean;
  hiddenUserIds: ReadonlySet<string>;
  memberVolumes: Readonly<Record<string, number>>;
  /**
   * Decision 050: members whose SOS is on the air now. They are heard at full volume at least,
   * whatever Mute Channel, an admin mute or a volume under 100 % say. Absent: nobody.
   */
  sosUserIds?: ReadonlySet<string>;
  /** Never heard, not even in an SOS: blocked users (decision 051) and oneself. Absent: nobody. */
  neverHeardUserIds?: ReadonlySet<string>;
};

/** The member's SOS is on the air and nothing forbids hearing them. */
export function hearsSos(userId: string | undefined, policy: AudioPolicy): boolean {
  return (
    userId !== undefined &&
    policy.sosUserIds?.has(userId) === true &&
    policy.neverHeardUserIds?.has(userId) !== true
  );
}

export function shouldMute(userId: string | undefined, policy: AudioPolicy): boolean {
  if (hearsSos(userId, policy)) return false;
  return policy.channelMuted || (userId !== undefined && policy.hiddenUserIds.has(userId));
}

/** The gain a remote member's audio plays at: 0 while muted, else their volume as a factor. */
export function gainFor(userId: string | undefined, policy: AudioPolicy): number {
  if (shouldMute(userId, policy)) return 0;
  const volume = userId === undefined ? undefined : policy.memberVolumes[userId];
  const gain = volume === undefined ? 1 : volumeToGain(volume);
  return hearsSos(userId, policy) ? Math.max(1, gain) : gain;
}

/**
 * Mutes or unmutes every remote audio element in `container` to match `policy`, and sets each
 * one's gain on `output` (the Web Audio path the listener actually hears).
 */
export function applyAudioPolicy(
  container: ParentNode,
  policy: AudioPolicy,
  output?: RemoteAudioOutput,
): void {
  const elements = new Set(container.querySelectorAll('audio'));
  for (const element of elements) {
    const muted = shouldMute(element.dataset.userId, policy);
    if (element.muted !== muted) element.muted = muted;
    output?.setGain(element, gainFor(element.dataset.userId, policy));
  }
  output?.keepOnly(elements);
}

/**
 * Keeps `#remote-audio` in line with the policy, including elements the transport adds later
 * (a talker joining while their user is muted must never be heard, not even for a moment).
 * Returns the function that stops watching.
 */
export function watchRemoteAudio(
  getPolicy: () => AudioPolicy,
  doc: Document = document,
  output?: RemoteAudioOutput,
): {
  reapply: () => void;
  stop: () => void;
} {
  const container = doc.getElementById(REMOTE_AUDIO_CONTAINER_ID);
  if (!container) return { reapply: () => undefined, stop: () => undefined };
  const reapply = () => applyAudioPolicy(container, getPolicy(), output);
  const observer = new MutationObserver(reapply);
  observer.observe(container, { childList: true, subtree: true });
  reapply();
  return {
    reapply,
    stop: () => {
      observer.disconnect();
      output?.keepOnly(new Set());
    },
  };
}
