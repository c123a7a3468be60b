import { useId, useMemo } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { Label } from '../../ui/Label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../ui/Select';
import { chooseAudioDevices, speakerChoiceSupported } from './audio-devices';
import { MicrophoneTest } from './MicrophoneTest';
import { useAudioDeviceChoice, useAudioDevices, type AudioDevice } from './useAudioDevices';

/** Radix Select items cannot have an empty value: this one stands for "the system's default". */
const SYSTEM_DEFAULT = 'system-default';

export const AUDIO_DEVICE_TEXTS = {
  speakerUnsupported:
    'This browser always plays Chirp on the system’s speaker. To use another one, change the output in your device’s sound settings.',
  unnamed: 'Your browser names your devices once Chirp may use the microphone: test it below.',
  unavailable: 'This browser does not let Chirp choose a microphone or speaker; it uses the system’s default ones.',
} as const;

function DeviceSelect({
  label,
  devices,
  value,
  onChange,
}: {
  label: string;
  devices: AudioDevice[];
  value: string | null;
  onChange: (id: string | null) => void;
}) {
  const id = useId();
  // A device chosen earlier but not listed now (unplugged, or names not shown yet) still shows,
  // so the choice is not silently lost.
  const missing = value !== null && !devices.some((device) => device.id === value) ? value : null;
  return (
    <div className="grid min-w-0 gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Select
        value={value ?? SYSTEM_DEFAULT}
        onValueChange={(next) => onChange(next === SYSTEM_DEFAULT ? null : next)}
      >
        <SelectTrigger id={id}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={SYSTEM_DEFAULT}>System default</SelectItem>
          {devices.map((device) => (
            <SelectItem key={device.id} value={device.id}>
              {device.label}
            </SelectItem>
          ))}
          {missing === null ? null : <SelectItem value={missing}>{`Chosen ${label.toLowerCase()} (not found now)`}</SelectItem>}
        </SelectContent>
      </Select>
    </div>
  );
}

/**
 * Settings → Voice and devices: the microphone and speaker Chirp uses in this browser, for channels
 * and calls, and a microphone test with a level meter.
 */
export function AudioDevicesCard() {
  const { microphones, speakers, named, unavailable, refresh } = useAudioDevices();
  const choice = useAudioDeviceChoice();
  const canChooseSpeaker = useMemo(() => speakerChoiceSupported(), []);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Microphone and speaker</CardTitle>
        <CardDescription>
          For channels and calls on this device. A new microphone is used the next time Chirp opens
          it (going ONLINE or a call); a new speaker plays at once.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {unavailable ? (
          <p className="rounded-xl bg-muted p-4 text-sm text-muted-foreground">{AUDIO_DEVICE_TEXTS.unavailable}</p>
        ) : (
          <>
            <div className="grid gap-4 sm:grid-cols-2">
              <DeviceSelect
                label="Microphone"
                devices={microphones}
                value={choice.microphoneId}
                onChange={(microphoneId) => chooseAudioDevices({ microphoneId })}
              />
              {canChooseSpeaker ? (
                <DeviceSelect
                  label="Speaker"
                  devices={speakers}
                  value={choice.speakerId}
                  onChange={(speakerId) => chooseAudioDevices({ speakerId })}
                />
              ) : (
                <div className="grid content-start gap-2">
                  <span className="text-sm font-medium">Speaker</span>
                  <p className="text-sm text-muted-foreground">{AUDIO_DEVICE_TEXTS.speakerUnsupported}</p>
                </div>
              )}
            </div>
            {named ? null : <p className="text-sm text-muted-foreground">{AUDIO_DEVICE_TEXTS.unnamed}</p>}
          </>
        )}
        <MicrophoneTest microphoneId={choice.microphoneId} onOpened={() => void refresh()} />
      </CardContent>
    </Card>
  );
}
