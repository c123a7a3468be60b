import { describe, expect, it } from 'vitest';
import {
  applyAudioPolicy,
  gainFor,
  shouldMute,
  watchRemoteAudio,
  type AudioPolicy,
} from './audio-policy';
import type { RemoteAudioOutput } from './remote-audio-gain';

function audio(userId: string): HTMLAudioElement {
  const element = document.createElement('audio');
  element.dataset.userId = userId;
  return element;
}

/** Records the gains the policy asks for, as the Web Audio output would apply them. */
class RecordingOutput implements RemoteAudioOutput {
  readonly gains = new Map<HTMLAudioElement, number>();
  setGain(element: HTMLAudioElement, gain: number): void {
    this.gains.set(element, gain);
  }
  keepOnly(elements: ReadonlySet<HTMLAudioElement>): void {
    for (const element of this.gains.keys()) if (!elements.has(element)) this.gains.delete(element);
  }
}

describe('audio policy', () => {
  const hidden = new Set(['muted-user', 'blocked-user']);
  const policy = (patch: Partial<AudioPolicy> = {}): AudioPolicy => ({
    channelMuted: false,
    hiddenUserIds: hidden,
    memberVolumes: {},
    ...patch,
  });

  it('mutes hidden users, and everyone while the channel is muted', () => {
    expect(shouldMute('muted-user', policy())).toBe(true);
    expect(shouldMute('friend', policy())).toBe(false);
    expect(shouldMute('friend', policy({ channelMuted: true }))).toBe(true);
    expect(shouldMute(undefined, policy())).toBe(false);
  });

  it('plays members at their volume: 0 % silent, 100 % as sent, 200 % doubled; mutes win', () => {
    const volumes = { quiet: 0, loud: 200, half: 50, 'muted-user': 200 };
    expect(gainFor('quiet', policy({ memberVolumes: volumes }))).toBe(0);
    expect(gainFor('loud', policy({ memberVolumes: volumes }))).toBe(2);
    expect(gainFor('half', policy({ memberVolumes: volumes }))).toBe(0.5);
    expect(gainFor('unset', policy({ memberVolumes: volumes }))).toBe(1);
    expect(gainFor('muted-user', policy({ memberVolumes: volumes }))).toBe(0);
    expect(gainFor('loud', policy({ memberVolumes: volumes, channelMuted: true }))).toBe(0);
  });

  it('plays an SOS on the air at full volume at least, whatever Mute Channel, an admin mute or a low volume', () => {
    const sos = {
      sosUserIds: new Set(['ava', 'muted-user']),
      neverHeardUserIds: new Set(['blocked-user']),
    };
    const volumes = { ava: 30, 'muted-user': 50, loud: 150 };
    const during = policy({ ...sos, memberVolumes: volumes, channelMuted: true });
    expect(shouldMute('ava', during)).toBe(false);
    expect(gainFor('ava', during)).toBe(1);
    // Admin-muted in the channel: the SOS is heard anyway (decision 050).
    expect(gainFor('muted-user', during)).toBe(1);
    // Someone else in the channel still follows Mute Channel.
    expect(gainFor('loud', during)).toBe(0);
    // Above 100 % stays above.
    expect(gainFor('loud', policy({ sosUserIds: new Set(['loud']), memberVolumes: volumes }))).toBe(
      1.5,
    );
  });

  it('never plays a blocked member, not even their SOS; after the SOS the settings apply again', () => {
    const volumes = { ava: 30 };
    const blocked = policy({
      sosUserIds: new Set(['blocked-user']),
      neverHeardUserIds: new Set(['blocked-user']),
    });
    expect(shouldMute('blocked-user', blocked)).toBe(true);
    expect(gainFor('blocked-user', blocked)).toBe(0);
    const after = policy({ sosUserIds: new Set(), memberVolumes: volumes, channelMuted: false });
    expect(gainFor('ava', after)).toBe(0.3);
    expect(gainFor('ava', { ...after, channelMuted: true })).toBe(0);
  });

  it('applies to the elements of a container and undoes it', () => {
    const container = document.createElement('div');
    const [a, b] = [audio('muted-user'), audio('friend')];
    container.append(a, b);
    const output = new RecordingOutput();
    applyAudioPolicy(container, policy({ memberVolumes: { friend: 150 } }), output);
    expect([a.muted, b.muted]).toEqual([true, false]);
    expect([output.gains.get(a), output.gains.get(b)]).toEqual([0, 1.5]);
    applyAudioPolicy(container, policy({ hiddenUserIds: new Set() }), output);
    expect([a.muted, b.muted]).toEqual([false, false]);
    expect([output.gains.get(a), output.gains.get(b)]).toEqual([1, 1]);
    b.remove();
    applyAudioPolicy(container, policy(), output);
    expect([...output.gains.keys()]).toEqual([a]);
  });

  it('mutes an element the moment it is added to #remote-audio', async () => {
    const container = document.createElement('div');
    container.id = 'remote-audio';
    document.body.append(container);
    const output = new RecordingOutput();
    const watcher = watchRemoteAudio(() => policy(), document, output);
    const late = audio('blocked-user');
    container.append(late);
    await Promise.resolve();
    expect(late.muted).toBe(true);
    expect(output.gains.get(late)).toBe(0);
    watcher.stop();
    expect(output.gains.size).toBe(0);
    container.remove();
  });
});
