import { REMOTE_AUDIO_CONTAINER_ID } from './transport/remote-audio';

/**
 * Who must not be heard (spec §6): the whole channel while Mute Channel is on, admin-muted users,
 * blocked users (DESIGN §3) and — belt and braces, the server never sends it — oneself.
 */
export type AudioPolicy = {
  channelMuted: boolean;
  hiddenUserIds: ReadonlySet<string>;
};

export function shouldMute(userId: string | undefined, policy: AudioPolicy): boolean {
  return policy.channelMuted || (userId !== undefined && policy.hiddenUserIds.has(userId));
}

/** Mutes or unmutes every remote audio element in `container` to match `policy`. */
export function applyAudioPolicy(container: ParentNode, policy: AudioPolicy): void {
  for (const element of container.querySelectorAll('audio')) {
    const muted = shouldMute(element.dataset.userId, policy);
    if (element.muted !== muted) element.muted = muted;
  }
}

/**
 * Keeps `#remote-audio` in line with the policy, including elements the transport adds later
 * (a talker joining while their user is muted must never be heard, not even for a moment).
 * Returns the function that stops watching.
 */
export function watchRemoteAudio(
  getPolicy: () => AudioPolicy,
  doc: Document = document,
): {
  reapply: () => void;
  stop: () => void;
} {
  const container = doc.getElementById(REMOTE_AUDIO_CONTAINER_ID);
  if (!container) return { reapply: () => undefined, stop: () => undefined };
  const reapply = () => applyAudioPolicy(container, getPolicy());
  const observer = new MutationObserver(reapply);
  observer.observe(container, { childList: true, subtree: true });
  reapply();
  return { reapply, stop: () => observer.disconnect() };
}
