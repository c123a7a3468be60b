import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { audioDeviceChoice, resetAudioDeviceChoiceCache } from './audio-devices';
import { AUDIO_DEVICE_TEXTS, AudioDevicesCard } from './AudioDevicesCard';
import { levelFromRms } from './microphone-level';

const device = (kind: MediaDeviceKind, deviceId: string, label: string) =>
  ({ kind, deviceId, label, groupId: 'g' }) as MediaDeviceInfo;

/** A browser with two microphones and a speaker; the microphone hums at the given amplitude. */
function browserWithDevices(amplitude = 0.5) {
  const stopped: string[] = [];
  const opened: MediaStreamConstraints[] = [];
  const track = { stop: () => stopped.push('track') };
  vi.stubGlobal('navigator', {
    mediaDevices: {
      enumerateDevices: () =>
        Promise.resolve([
          device('audioinput', 'default', 'Default - Built-in'),
          device('audioinput', 'built-in', 'Built-in Microphone'),
          device('audioinput', 'usb', 'USB Headset'),
          device('audiooutput', 'speakers', 'Speakers'),
        ]),
      getUserMedia: (constraints: MediaStreamConstraints) => {
        opened.push(constraints);
        return Promise.resolve({ getTracks: () => [track] });
      },
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    },
  });
  vi.stubGlobal(
    'AudioContext',
    class {
      setSinkId() {
        return Promise.resolve();
      }
      createMediaStreamSource() {
        return { connect: () => undefined, disconnect: () => undefined };
      }
      createAnalyser() {
        return {
          fftSize: 0,
          getFloatTimeDomainData: (samples: Float32Array) => samples.fill(amplitude),
        };
      }
      resume() {
        return Promise.resolve();
      }
      close() {
        stopped.push('context');
        return Promise.resolve();
      }
    },
  );
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => setTimeout(callback, 16));
  vi.stubGlobal('cancelAnimationFrame', (handle: number) => clearTimeout(handle));
  return { stopped, opened };
}

/** Radix Select opens from the keyboard; jsdom lacks the scrolling and pointer capture it calls. */
beforeAll(() => {
  Element.prototype.scrollIntoView = () => undefined;
  Element.prototype.hasPointerCapture = () => false;
  Element.prototype.releasePointerCapture = () => undefined;
});
beforeEach(() => {
  localStorage.clear();
  resetAudioDeviceChoiceCache();
  HTMLMediaElement.prototype.setSinkId = () => Promise.resolve();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(HTMLMediaElement.prototype, 'setSinkId');
});

describe('Settings → Microphone and speaker', { timeout: 20_000 }, () => {
  it('lists the microphones by name (without the browser’s duplicate default) and keeps the choice', async () => {
    browserWithDevices();
    render(<AudioDevicesCard />);
    // Named devices (the microphone was allowed before): no hint to test it first.
    await waitFor(() => expect(screen.queryByText(AUDIO_DEVICE_TEXTS.unnamed)).toBeNull());
    const microphone = screen.getByRole('combobox', { name: 'Microphone' });
    expect(microphone.textContent).toBe('System default');
    fireEvent.keyDown(microphone, { key: 'Enter' });
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['System default', 'Built-in Microphone', 'USB Headset']);
    fireEvent.keyDown(screen.getByRole('option', { name: 'USB Headset' }), { key: 'Enter' });
    expect(screen.getByRole('combobox', { name: 'Microphone' }).textContent).toBe('USB Headset');
    expect(audioDeviceChoice().microphoneId).toBe('usb');
    expect(localStorage.getItem('chirp.microphoneId')).toBe('usb');
  });

  it('explains, instead of a speaker list, where the browser cannot choose a speaker', () => {
    browserWithDevices();
    Reflect.deleteProperty(HTMLMediaElement.prototype, 'setSinkId');
    render(<AudioDevicesCard />);
    expect(screen.queryByRole('combobox', { name: 'Speaker' })).toBeNull();
    expect(screen.getByText(AUDIO_DEVICE_TEXTS.speakerUnsupported)).toBeTruthy();
  });

  it('the microphone test shows the chosen microphone’s level and closes it on Stop and on leaving', async () => {
    const { stopped, opened } = browserWithDevices(0.5);
    localStorage.setItem('chirp.microphoneId', 'usb');
    const { unmount } = render(<AudioDevicesCard />);
    const meter = screen.getByRole('meter', { name: 'Microphone level' });
    expect(meter.getAttribute('aria-valuenow')).toBe('0');

    fireEvent.click(screen.getByRole('button', { name: 'Test microphone' }));
    expect(await screen.findByText('Chirp hears this microphone.')).toBeTruthy();
    expect(Number(meter.getAttribute('aria-valuenow'))).toBe(Math.round(levelFromRms(0.5) * 100));
    expect(opened[0]?.audio).toMatchObject({ deviceId: { ideal: 'usb' } });

    fireEvent.click(screen.getByRole('button', { name: 'Stop test' }));
    expect(stopped).toEqual(['track', 'context']);
    expect(screen.getByRole('button', { name: 'Test microphone' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Test microphone' }));
    await screen.findByRole('button', { name: 'Stop test' });
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    unmount();
    expect(stopped).toEqual(['track', 'context', 'track', 'context']);
  });

  it('puts the level on a decibel scale: silence empty, full scale full, speech in between', () => {
    expect(levelFromRms(0)).toBe(0);
    expect(levelFromRms(0.0001)).toBe(0); // -80 dBFS: below the floor
    expect(levelFromRms(1)).toBe(1);
    expect(levelFromRms(0.1)).toBeCloseTo(2 / 3); // -20 dBFS
  });
});
