import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket } from '../../testing/fake-websocket';
import { PeerSession, REMOTE_CALL_AUDIO_ATTRIBUTE } from '../calls/peer-session';
import { captureMicrophone } from '../voice/transport/microphone';
import { liveKitRoomOptions } from '../voice/transport/livekit-port';
import {
  audioDeviceChoice,
  chooseAudioDevices,
  followChosenSpeaker,
  resetAudioDeviceChoiceCache,
} from './audio-devices';

/** A getUserMedia that records the constraints it was asked for and hands out one audio track. */
function recordingGetUserMedia() {
  const asked: MediaStreamConstraints[] = [];
  const track = { kind: 'audio', enabled: true, stop: vi.fn() } as unknown as MediaStreamTrack;
  const getUserMedia = (constraints: MediaStreamConstraints) => {
    asked.push(constraints);
    return Promise.resolve({ getAudioTracks: () => [track], getTracks: () => [track] } as unknown as MediaStream);
  };
  return { asked, getUserMedia };
}

/** The smallest peer connection a call's start needs: it takes the local track and nothing else. */
class SilentPeerConnection {
  onicecandidate: unknown = null;
  ontrack: unknown = null;
  onconnectionstatechange: unknown = null;
  addTrack(): void {}
  addTransceiver(): void {}
  close(): void {}
}

beforeEach(() => {
  localStorage.clear();
  resetAudioDeviceChoiceCache();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('the microphone and speaker chosen in Settings', () => {
  it('are kept in this browser and read back after a reload', () => {
    chooseAudioDevices({ microphoneId: 'usb-mic', speakerId: 'headphones' });
    resetAudioDeviceChoiceCache(); // a new page
    expect(audioDeviceChoice()).toEqual({ microphoneId: 'usb-mic', speakerId: 'headphones' });
    chooseAudioDevices({ microphoneId: null });
    resetAudioDeviceChoiceCache();
    expect(audioDeviceChoice()).toEqual({ microphoneId: null, speakerId: 'headphones' });
  });

  it('the built-in SFU opens the chosen microphone, keeping the spec’s capture settings', async () => {
    const { asked, getUserMedia } = recordingGetUserMedia();
    await captureMicrophone(getUserMedia);
    expect(asked[0]?.audio).not.toHaveProperty('deviceId');

    chooseAudioDevices({ microphoneId: 'usb-mic' });
    await captureMicrophone(getUserMedia);
    expect(asked[1]).toEqual({
      audio: {
        echoCancellation: true,
        noiseSuppression: true,
        autoGainControl: true,
        deviceId: { ideal: 'usb-mic' },
      },
      video: false,
    });
  });

  it('a one-to-one call opens the chosen microphone and plays the other person on the chosen speaker', async () => {
    chooseAudioDevices({ microphoneId: 'usb-mic', speakerId: 'headphones' });
    const { asked, getUserMedia } = recordingGetUserMedia();
    vi.stubGlobal('navigator', { mediaDevices: { getUserMedia } });
    vi.stubGlobal('RTCPeerConnection', SilentPeerConnection);
    vi.stubGlobal('WebSocket', FakeWebSocket);
    const sinks: string[] = [];
    HTMLMediaElement.prototype.setSinkId = function (this: HTMLMediaElement, sinkId: string) {
      if (this.hasAttribute(REMOTE_CALL_AUDIO_ATTRIBUTE)) sinks.push(sinkId);
      return Promise.resolve();
    };

    const session = new PeerSession({
      callId: 'call-1',
      roomName: 'room-1',
      userId: 'ann',
      isInitiator: true,
      iceServers: () => Promise.resolve([]),
      onStatus: () => undefined,
      onRoomGone: () => undefined,
      onMicrophoneError: () => undefined,
    });
    await session.start();
    session.close();
    Reflect.deleteProperty(HTMLMediaElement.prototype, 'setSinkId');

    expect(asked[0]?.audio).toMatchObject({ echoCancellation: true, deviceId: { ideal: 'usb-mic' } });
    expect(sinks).toEqual(['headphones']);
  });

  it('LiveKit rooms are created with the chosen microphone and speaker', () => {
    expect(liveKitRoomOptions()).not.toHaveProperty('audioOutput');
    chooseAudioDevices({ microphoneId: 'usb-mic', speakerId: 'headphones' });
    const options = liveKitRoomOptions();
    expect(options.audioCaptureDefaults).toEqual({
      echoCancellation: true,
      noiseSuppression: true,
      autoGainControl: true,
      deviceId: { ideal: 'usb-mic' },
    });
    expect(options.audioOutput).toEqual({ deviceId: 'headphones' });
    expect(options).toMatchObject({ adaptiveStream: true, dynacast: true });
  });

  it('channel voices follow a speaker change at once (the voice AudioContext)', () => {
    const sinks: string[] = [];
    const context = { setSinkId: (id: string) => (sinks.push(id), Promise.resolve()) };
    const stop = followChosenSpeaker(context as unknown as AudioContext);
    chooseAudioDevices({ speakerId: 'headphones' });
    chooseAudioDevices({ speakerId: null });
    stop();
    chooseAudioDevices({ speakerId: 'car' });
    // Nothing chosen at first: already on the default sink, so nothing to set until the change.
    expect(sinks).toEqual(['headphones', '']);
  });
});
