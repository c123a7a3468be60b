import { describe, expect, it } from 'vitest';
import type { CallHistoryEntry } from '../../../../protocol/calls';
import { pushTapUrl } from '../../../../protocol/push';
import type { CallInfo } from '../calls/call-state';
import { callTapOutcome, readTapTarget, withoutTapTarget } from './push-tap';

const search = (url: string) => new URL(url, 'https://chirp.example').search;

describe('readTapTarget', () => {
  it('reads what each tap URL of the protocol asks for', () => {
    expect(readTapTarget(search(pushTapUrl.call('call-1234')))).toEqual({ kind: 'call', callId: 'call-1234' });
    expect(readTapTarget(search(pushTapUrl.channel(12)))).toEqual({ kind: 'channel', channelId: 12, play: null });
    expect(readTapTarget(search(pushTapUrl.transmission(12, 'tx 1')))).toEqual({ kind: 'channel', channelId: 12, play: 'tx 1' });
  });
  it('ignores a query that is not a tap target', () => {
    expect(readTapTarget('')).toBeNull();
    expect(readTapTarget('?channel=abc')).toBeNull();
    expect(readTapTarget('?channel=0')).toBeNull();
    expect(readTapTarget('?invite=xyz')).toBeNull();
    expect(readTapTarget('?channel=4&invite=xyz')).toBeNull();
  });
  it('removes only its own parameters once acted on', () => {
    expect(withoutTapTarget('?channel=3&play=t1')).toBe('');
    expect(withoutTapTarget('?call=c1&invite=xyz')).toBe('?invite=xyz');
  });
});

const call: CallInfo = { callId: 'call-1234', roomName: 'call-call-1234', contactId: 'ava', contactName: 'Ava', contactProfileImageUrl: null, isInitiator: false };
const entry = (outcome: CallHistoryEntry['outcome'], answeredAt: string | null = null): CallHistoryEntry => ({
  callId: 'call-1234', direction: 'incoming', contactId: 'ava', contactName: 'Ava', contactProfileImageUrl: null,
  outcome, startedAt: '2026-11-26T00:00:00Z', answeredAt, endedAt: null, durationSeconds: 0,
});

describe('callTapOutcome', () => {
  it('shows the ringing call when it rings here', () => {
    expect(callTapOutcome('call-1234', { phase: 'incoming', call }, undefined)).toEqual({ kind: 'ringing' });
  });
  it('waits for the ring while the server still has the call ringing', () => {
    expect(callTapOutcome('call-1234', { phase: 'idle' }, undefined)).toEqual({ kind: 'wait' });
    expect(callTapOutcome('call-1234', { phase: 'idle' }, [entry('ongoing')])).toEqual({ kind: 'wait' });
  });
  it('says "Missed call from <name>" once it stopped ringing unanswered', () => {
    expect(callTapOutcome('call-1234', { phase: 'idle' }, [entry('missed')])).toEqual({ kind: 'missed', callerName: 'Ava' });
  });
  it('shows nothing for a call answered, over, or unknown', () => {
    expect(callTapOutcome('call-1234', { phase: 'idle' }, [entry('ongoing', '2026-11-26T00:00:05Z')])).toEqual({ kind: 'done' });
    expect(callTapOutcome('call-1234', { phase: 'idle' }, [entry('answered')])).toEqual({ kind: 'done' });
    expect(callTapOutcome('call-1234', { phase: 'idle' }, [])).toEqual({ kind: 'done' });
  });
});
