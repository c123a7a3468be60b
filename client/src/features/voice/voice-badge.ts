import type { RoomPhase } from './room-connection/room-machine';

export type VoiceBadge = 'ready' | 'connecting' | 'unavailable' | null;

/**
 * The top bar's voice badge (spec §2: "Voice Ready" or "Connecting"), only while it tells the
 * truth: nothing while offline, idle (the "Idle - Saving Minutes" badge speaks then) or on a call,
 * and "Voice Unavailable" once the room gave up instead of "Connecting" forever.
 */
export function voiceBadge(
  presence: { online: boolean; idle: boolean; callActive: boolean },
  phase: RoomPhase,
): VoiceBadge {
  if (!presence.online || presence.idle || presence.callActive) return null;
  if (phase === 'connected') return 'ready';
  if (phase === 'stopped') return 'unavailable';
  return 'connecting';
}
