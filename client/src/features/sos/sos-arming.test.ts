// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { armSos, type SosArmingDeps } from './sos-arming';

/** A voice room that connects when told, and what was asked of the server. */
function setup(answer: () => Promise<{ armed: boolean }> = () => Promise.resolve({ armed: true })) {
  const listeners = new Set<() => void>();
  let connected = false;
  let channelId: number | null = 7;
  const microphone: boolean[] = [];
  const calls: string[] = [];
  const deps: SosArmingDeps = {
    room: {
      getView: () => ({ connected }),
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      armMicrophone: (armed) => microphone.push(armed),
    },
    channelId: () => channelId,
    api: {
      arm: (id) => {
        calls.push(`arm ${id}`);
        return answer();
      },
      disarm: (id) => {
        calls.push(`disarm ${id}`);
        return Promise.resolve();
      },
    },
  };
  const connect = (inChannel = 7) => {
    connected = true;
    channelId = inChannel;
    listeners.forEach((listener) => listener());
  };
  return { deps, connect, microphone, calls, listeners };
}

describe('arming an SOS countdown', () => {
  it('asks the server once the voice room is connected in the SOS channel, and is armed if it says so', async () => {
    const t = setup();
    const arm = armSos(t.deps, 7);
    expect(t.calls).toEqual([]);
    t.connect(3);
    expect(t.calls).toEqual([]);
    t.connect(7);
    t.connect(7);
    expect(t.calls).toEqual(['arm 7']);
    expect(t.microphone).toEqual([true]);
    expect(arm.armed).toBe(false);
    await vi.waitFor(() => expect(arm.armed).toBe(true));
    expect(t.listeners.size).toBe(0);
  });

  it('a refusal or a failure lets the microphone go, and the SOS goes unarmed', async () => {
    for (const answer of [
      () => Promise.resolve({ armed: false }),
      () => Promise.reject(new Error('429')),
    ]) {
      const t = setup(answer);
      const arm = armSos(t.deps, 7);
      t.connect();
      await vi.waitFor(() => expect(t.microphone).toEqual([true, false]));
      expect(arm.armed).toBe(false);
    }
  });

  it('Cancel takes it back at the server after the arm was answered; before any ask, asks nothing', async () => {
    let answer: (value: { armed: boolean }) => void = () => undefined;
    const t = setup(() => new Promise((resolve) => (answer = resolve)));
    const arm = armSos(t.deps, 7);
    t.connect();
    arm.cancel();
    expect(t.calls).toEqual(['arm 7']);
    expect(arm.armed).toBe(false);
    answer({ armed: true });
    await vi.waitFor(() => expect(t.calls).toEqual(['arm 7', 'disarm 7']));
    expect(arm.armed).toBe(false);

    const never = setup();
    armSos(never.deps, 7).cancel();
    never.connect();
    expect(never.calls).toEqual([]);
  });

  it('settled by the SOS before the room connected, never asks', () => {
    const t = setup();
    armSos(t.deps, 7).settle();
    t.connect();
    expect(t.calls).toEqual([]);
    expect(t.microphone).toEqual([]);
  });
});
