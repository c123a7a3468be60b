import type { CallHistoryEntry } from '../../../../protocol/calls';
import { INVITE_URL_PARAMS } from '../../../../protocol/invites';
import type { CallState } from '../calls/call-state';

/** What a notification's tap asks the main screen to open (`pushTapUrl` in protocol/push.ts). */
export type TapTarget =
  | { kind: 'call'; callId: string }
  | { kind: 'channel'; channelId: number; play: string | null };

/**
 * The tap target in a location's query (`?call=…` or `?channel=…[&play=…]`), if any. An invite
 * link (`?channel=…&invite=…`) is not one: the invite is redeemed first (`useChannelEntry`).
 */
export function readTapTarget(search: string): TapTarget | null {
  const params = new URLSearchParams(search);
  if (params.has(INVITE_URL_PARAMS.token)) return null;
  const callId = params.get('call');
  if (callId) return { kind: 'call', callId };
  const channel = params.get('channel');
  if (channel !== null && /^[1-9]\d{0,15}$/.test(channel))
    return { kind: 'channel', channelId: Number(channel), play: params.get('play') || null };
  return null;
}

/** The query without the tap target's parameters (acted on, they must not act again on reload). */
export function withoutTapTarget(search: string): string {
  const params = new URLSearchParams(search);
  for (const name of ['call', 'channel', 'play']) params.delete(name);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/**
 * What a tap on a call's notification comes to:
 * - `ringing`: the call rings here now (its Accept/Decline show);
 * - `wait`: the server still has it ringing, and this tab has not been told yet;
 * - `missed`: it stopped ringing before it was answered here ("Missed call from <name>");
 * - `done`: nothing to show (answered, over, or not known here).
 */
export type CallTapOutcome =
  | { kind: 'ringing' }
  | { kind: 'wait' }
  | { kind: 'missed'; callerName: string }
  | { kind: 'done' };

export function callTapOutcome(
  callId: string,
  state: CallState,
  history: readonly CallHistoryEntry[] | undefined,
): CallTapOutcome {
  if (state.phase !== 'idle' && state.call.callId === callId)
    return state.phase === 'incoming' ? { kind: 'ringing' } : { kind: 'done' };
  if (!history) return { kind: 'wait' };
  const entry = history.find((call) => call.callId === callId);
  if (!entry) return { kind: 'done' };
  if (entry.outcome === 'ongoing') return entry.answeredAt === null ? { kind: 'wait' } : { kind: 'done' };
  if (entry.direction === 'incoming' && (entry.outcome === 'missed' || entry.outcome === 'cancelled'))
    return { kind: 'missed', callerName: entry.contactName };
  return { kind: 'done' };
}

export const missedCallText = (callerName: string) => `Missed call from ${callerName}`;
