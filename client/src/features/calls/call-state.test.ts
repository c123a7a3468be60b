import { describe, expect, it } from 'vitest';
import {
  callReducer,
  formatDuration,
  IDLE,
  isCallActive,
  type CallInfo,
  type CallState,
} from './call-state';

const call = (callId = 'call-1', isInitiator = true): CallInfo => ({
  callId,
  roomName: `room-${callId}`,
  contactId: 'u2',
  contactName: 'Bea Beta',
  contactProfileImageUrl: null,
  isInitiator,
});

describe('callReducer', () => {
  it('places a call: ringing as initiator, active when accepted, idle when hung up', () => {
    let state: CallState = callReducer(IDLE, { type: 'start', call: call() });
    expect(state).toMatchObject({ phase: 'outgoing', minimized: false, media: 'connecting' });
    expect(isCallActive(state)).toBe(true);
    state = callReducer(state, { type: 'remote_accepted', callId: 'other', now: 5 });
    expect(state.phase).toBe('outgoing');
    state = callReducer(state, { type: 'remote_accepted', callId: 'call-1', now: 5 });
    expect(state).toMatchObject({ phase: 'active', startedAt: 5 });
    state = callReducer(state, { type: 'media', callId: 'call-1', status: 'connected' });
    expect(state).toMatchObject({ media: 'connected' });
    expect(callReducer(state, { type: 'end', callId: 'call-1', cause: 'hangup' })).toBe(IDLE);
  });

  it('receives a call: incoming is not yet active; accepting makes it active', () => {
    let state = callReducer(IDLE, { type: 'incoming', call: call('c2', false) });
    expect(state.phase).toBe('incoming');
    expect(isCallActive(state)).toBe(false);
    state = callReducer(state, { type: 'accept', now: 100 });
    expect(state).toMatchObject({
      phase: 'active',
      startedAt: 100,
      minimized: false,
      call: { isInitiator: false },
    });
  });

  it('ignores a second incoming call and events for other calls', () => {
    const ringing = callReducer(IDLE, { type: 'incoming', call: call('c1', false) });
    expect(callReducer(ringing, { type: 'incoming', call: call('c2', false) })).toBe(ringing);
    expect(callReducer(ringing, { type: 'end', callId: 'c2', cause: 'missed' })).toBe(ringing);
    expect(callReducer(ringing, { type: 'end', callId: 'c1', cause: 'missed' })).toBe(IDLE);
    expect(callReducer(IDLE, { type: 'accept', now: 1 })).toBe(IDLE);
  });

  it('minimizes and restores an active or ringing call only; ending clears the minimized state', () => {
    const active = callReducer(callReducer(IDLE, { type: 'incoming', call: call('c1', false) }), {
      type: 'accept',
      now: 0,
    });
    const minimized = callReducer(active, { type: 'minimize' });
    expect(minimized).toMatchObject({ minimized: true });
    expect(callReducer(minimized, { type: 'restore' })).toMatchObject({ minimized: false });
    const ringing = callReducer(IDLE, { type: 'incoming', call: call('c3', false) });
    expect(callReducer(ringing, { type: 'minimize' })).toBe(ringing);
    expect(callReducer(minimized, { type: 'end', callId: 'c1', cause: 'remote_ended' })).toEqual({
      phase: 'idle',
    });
  });

  it('keeps the minimized state when the callee accepts', () => {
    const outgoing = callReducer(callReducer(IDLE, { type: 'start', call: call() }), {
      type: 'minimize',
    });
    expect(
      callReducer(outgoing, { type: 'remote_accepted', callId: 'call-1', now: 1 }),
    ).toMatchObject({ phase: 'active', minimized: true });
  });
});

describe('formatDuration', () => {
  it('shows m:ss', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(9_999)).toBe('0:09');
    expect(formatDuration(61_000)).toBe('1:01');
    expect(formatDuration(3_600_000)).toBe('60:00');
  });
});
