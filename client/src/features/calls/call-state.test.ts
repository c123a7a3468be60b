// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { CallServerMessage } from '../../../../protocol/calls';
import {
  formatDuration,
  IDLE_VIEW,
  isCallActive,
  reduceCall,
  type CallEvent,
  type CallInfo,
  type CallView,
} from './call-state';

const call = (callId = 'call-0001', isInitiator = true): CallInfo => ({
  callId,
  roomName: `room-${callId}`,
  contactId: 'bea',
  contactName: 'Bea Beta',
  contactProfileImageUrl: null,
  isInitiator,
});

const server = (message: CallServerMessage, deviceId = 'dev-1'): CallEvent => ({
  type: 'server',
  message,
  now: 50,
  deviceId,
});

const incoming = (callId = 'call-0002'): CallServerMessage => ({
  type: 'incoming_call',
  callId,
  roomName: `room-${callId}`,
  callerId: 'bea',
  callerName: 'Bea Beta',
  callerProfileImageUrl: null,
  contactId: 'bea',
  contactName: 'Bea Beta',
  contactProfileImageUrl: null,
  isInitiator: false,
});

/** Runs events from `view`, returning the last view and every effect kind in order. */
function run(view: CallView, ...events: CallEvent[]) {
  const kinds: string[] = [];
  for (const event of events) {
    const next = reduceCall(view, event);
    view = next.view;
    kinds.push(...next.effects.map((e) => (e.kind === 'send' ? `send:${e.message.type}` : e.kind)));
  }
  return { view, kinds };
}

const place: CallEvent = { type: 'place', call: call(), callerId: 'ann', socketOpen: true };

describe('reduceCall', () => {
  it('places a call: sends initiate_call, opens the peer; accepted, it is active; hanging up ends it', () => {
    let { view, kinds } = run(IDLE_VIEW, place);
    expect(view.state).toMatchObject({ phase: 'outgoing', minimized: false, media: 'connecting' });
    expect(isCallActive(view.state)).toBe(true);
    expect(kinds).toEqual(['send:initiate_call', 'open_peer']);

    ({ view } = run(
      view,
      server({ type: 'call_accepted', callId: 'other', roomName: 'room-other' }),
    ));
    expect(view.state.phase).toBe('outgoing');
    ({ view } = run(
      view,
      server({ type: 'call_accepted', callId: 'call-0001', roomName: 'room-call-0001' }),
    ));
    expect(view.state).toMatchObject({ phase: 'active', startedAt: 50 });
    ({ view } = run(view, { type: 'media', callId: 'call-0001', status: 'connected' }));
    expect(view.state).toMatchObject({ media: 'connected' });

    ({ view, kinds } = run(view, { type: 'toggle_mute' }));
    expect(view.muted).toBe(true);
    expect(kinds).toEqual(['mute_peer']);
    ({ view, kinds } = run(view, { type: 'hang_up' }));
    expect(view).toEqual(IDLE_VIEW);
    expect(kinds).toEqual(['send:call_ended', 'history_changed', 'close_peer', 'hangup_tone']);
  });

  it('does nothing without an open socket, while another call is on, or to oneself', () => {
    expect(run(IDLE_VIEW, { ...place, socketOpen: false }).view).toBe(IDLE_VIEW);
    expect(run(IDLE_VIEW, { ...place, callerId: 'bea' }).view).toBe(IDLE_VIEW);
    const { view } = run(IDLE_VIEW, place);
    const again = run(view, { ...place, call: call('call-0009') });
    expect(again.view).toBe(view);
    expect(again.kinds).toEqual([]);
  });

  it('rings on incoming_call; accepting leaves the channel first, then answers and opens the peer', () => {
    let { view, kinds } = run(IDLE_VIEW, server(incoming()));
    expect(view.state.phase).toBe('incoming');
    expect(isCallActive(view.state)).toBe(false);
    expect(kinds).toEqual(['start_ringtone']);
    const accept: CallEvent = { type: 'accept', now: 100, deviceId: 'dev-1', socketOpen: true };
    expect(run(view, { ...accept, socketOpen: false }).view).toBe(view);
    const accepted = reduceCall(view, accept);
    expect(accepted.effects.map((e) => e.kind)).toEqual([
      'leave_channel_voice',
      'send',
      'stop_ringtone',
      'open_peer',
    ]);
    expect(accepted.effects[1]).toEqual({
      kind: 'send',
      message: {
        type: 'call_accepted',
        callId: 'call-0002',
        roomName: 'room-call-0002',
        deviceId: 'dev-1',
      },
    });
    view = accepted.view;
    expect(view.state).toMatchObject({
      phase: 'active',
      startedAt: 100,
      call: { isInitiator: false },
    });

    // "Answered elsewhere" naming this device keeps the call; a hangup ends it with a toast.
    ({ view } = run(
      view,
      server({
        type: 'call_ended',
        callId: 'call-0002',
        reason: 'answered_elsewhere',
        deviceId: 'dev-1',
      }),
    ));
    expect(view.state.phase).toBe('active');
    ({ view, kinds } = run(
      view,
      server({ type: 'call_ended', callId: 'call-0002', reason: 'hangup' }),
    ));
    expect(view).toEqual(IDLE_VIEW);
    expect(kinds).toEqual(['notify', 'history_changed', 'close_peer', 'hangup_tone']);
  });

  it('stops ringing silently when another device answers', () => {
    const ringing = run(IDLE_VIEW, server(incoming())).view;
    const { view, kinds } = run(
      ringing,
      server({
        type: 'call_ended',
        callId: 'call-0002',
        reason: 'answered_elsewhere',
        deviceId: 'dev-2',
      }),
    );
    expect(view).toEqual(IDLE_VIEW);
    expect(kinds).toEqual(['stop_ringtone']);
  });

  it('toasts the decline reason, "No answer" to the caller and "Missed call" to the receiver', () => {
    const outgoing = run(IDLE_VIEW, place).view;
    const declined = reduceCall(
      outgoing,
      server({ type: 'call_declined', callId: 'call-0001', reason: 'User is busy' }),
    );
    expect(declined.effects).toContainEqual({ kind: 'notify', notice: { title: 'User is busy' } });
    const missed = reduceCall(outgoing, server({ type: 'call_missed', callId: 'call-0001' }));
    expect(missed.effects).toContainEqual({
      kind: 'notify',
      notice: { title: 'No answer', description: 'Bea Beta' },
    });
    const ringing = run(IDLE_VIEW, server(incoming())).view;
    const missedHere = reduceCall(ringing, server({ type: 'call_missed', callId: 'call-0002' }));
    expect(missedHere.view).toEqual(IDLE_VIEW);
    expect(missedHere.effects.map((e) => e.kind)).toEqual([
      'notify',
      'history_changed',
      'stop_ringtone',
    ]);
  });

  it('ignores a second incoming call and events for other calls', () => {
    const ringing = run(IDLE_VIEW, server(incoming('call-0001'))).view;
    expect(run(ringing, server(incoming('call-0003'))).view).toBe(ringing);
    expect(run(ringing, server({ type: 'call_missed', callId: 'call-0003' })).view).toBe(ringing);
    expect(run(IDLE_VIEW, { type: 'accept', now: 1, deviceId: 'd', socketOpen: true }).view).toBe(
      IDLE_VIEW,
    );
  });

  it('declining sends call_declined; minimize and restore only a live call', () => {
    const ringing = run(IDLE_VIEW, server(incoming())).view;
    expect(run(ringing, { type: 'minimize' }).view).toBe(ringing);
    const declined = run(ringing, { type: 'decline' });
    expect(declined.view).toEqual(IDLE_VIEW);
    expect(declined.kinds).toEqual(['send:call_declined', 'history_changed', 'stop_ringtone']);
    const live = run(IDLE_VIEW, place).view;
    const minimized = run(live, { type: 'minimize' }).view;
    expect(minimized.state).toMatchObject({ minimized: true });
    expect(run(minimized, { type: 'restore' }).view.state).toMatchObject({ minimized: false });
  });

  it('keeps the minimized state when the callee accepts', () => {
    const minimized = run(IDLE_VIEW, place, { type: 'minimize' }).view;
    const { view } = run(
      minimized,
      server({ type: 'call_accepted', callId: 'call-0001', roomName: 'room-call-0001' }),
    );
    expect(view.state).toMatchObject({ phase: 'active', minimized: true });
  });

  it('a gone room ends the call with a toast; a closing page tells the server; detach is silent', () => {
    const live = run(IDLE_VIEW, place).view;
    expect(run(live, { type: 'page_hidden' }).kinds).toEqual(['send:call_ended']);
    const gone = run(live, { type: 'room_gone', callId: 'call-0001' });
    expect(gone.view).toEqual(IDLE_VIEW);
    expect(gone.kinds).toEqual(['notify', 'history_changed', 'close_peer', 'hangup_tone']);
    const detached = run(live, { type: 'detach' });
    expect(detached.view).toEqual(IDLE_VIEW);
    expect(detached.kinds).toEqual(['close_peer']);
  });

  it('a failed call microphone is said as it happened, while the call goes on', () => {
    const live = run(IDLE_VIEW, place).view;
    const failed = reduceCall(live, {
      type: 'microphone_failed',
      callId: 'call-0001',
      message: 'No microphone found',
    });
    expect(failed.view).toBe(live);
    expect(failed.effects).toEqual([
      {
        kind: 'notify',
        notice: {
          title: 'Microphone Error',
          description: 'No microphone found',
          variant: 'destructive',
        },
      },
    ]);
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
