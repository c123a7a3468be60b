import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { audioDeviceChoice, subscribeAudioDevices, type AudioDeviceChoice } from './audio-devices';

export type AudioDevice = { id: string; label: string };

export type AudioDeviceList = {
  microphones: AudioDevice[];
  speakers: AudioDevice[];
  /** False until the user allowed the microphone once: browsers hide device names until then. */
  named: boolean;
  /** The browser offers no device list at all (an old engine, or a page that is not secure). */
  unavailable: boolean;
  refresh: () => Promise<void>;
};

/** Chrome's stand-ins for "whatever the system uses": Chirp offers its own "System default". */
const PSEUDO_DEVICES = new Set(['default', 'communications']);

function listOf(devices: MediaDeviceInfo[], kind: MediaDeviceKind, unnamed: string): AudioDevice[] {
  return devices
    .filter((device) => device.kind === kind && device.deviceId && !PSEUDO_DEVICES.has(device.deviceId))
    .map((device, index) => ({ id: device.deviceId, label: device.label || `${unnamed} ${index + 1}` }));
}

/** This browser's microphones and speakers, kept current as devices are plugged in or out. */
export function useAudioDevices(): AudioDeviceList {
  const mediaDevices = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
  const unavailable = typeof mediaDevices?.enumerateDevices !== 'function';
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);

  const refresh = useCallback(async () => {
    if (unavailable || !mediaDevices) return;
    try {
      setDevices(await mediaDevices.enumerateDevices());
    } catch (error) {
      console.warn('audio: could not list the devices', error);
    }
  }, [mediaDevices, unavailable]);

  useEffect(() => {
    if (unavailable || !mediaDevices) return;
    let active = true;
    const load = () => {
      mediaDevices.enumerateDevices().then(
        (list) => {
          if (active) setDevices(list);
        },
        (error: unknown) => console.warn('audio: could not list the devices', error),
      );
    };
    load();
    mediaDevices.addEventListener('devicechange', load);
    return () => {
      active = false;
      mediaDevices.removeEventListener('devicechange', load);
    };
  }, [mediaDevices, unavailable]);

  return {
    microphones: listOf(devices, 'audioinput', 'Microphone'),
    speakers: listOf(devices, 'audiooutput', 'Speaker'),
    named: devices.some((device) => device.kind === 'audioinput' && device.label !== ''),
    unavailable,
    refresh,
  };
}

/** The microphone and speaker chosen in this browser, re-rendering when they change. */
export function useAudioDeviceChoice(): AudioDeviceChoice {
  return useSyncExternalStore(subscribeAudioDevices, () => audioDeviceChoice());
}
