import { useEffect, useId, useRef, useState } from 'react';
import { Mic, Square } from 'lucide-react';
import { Button } from '../../ui/Button';
import { BusyIcon } from '../../ui/BusyIcon';
import { cn } from '../../lib/cn';
import { microphoneErrorMessage } from '../voice/microphone-error';
import { audioDeviceChoice, subscribeAudioDevices } from './audio-devices';
import { openMicrophoneLevel } from './microphone-level';

/** From this meter position on, the microphone clearly hears something (speech, not hiss). */
const HEARD_LEVEL = 0.35;

type TestState =
  | { status: 'idle' }
  | { status: 'starting' }
  | { status: 'running' }
  | { status: 'failed'; message: string };

export type MicrophoneTestProps = {
  microphoneId: string | null;
  /** The microphone opened: the browser now names the devices, so the lists can be read again. */
  onOpened?: () => void;
};

/**
 * Opens the chosen microphone and shows its live level, until Stop, another microphone is chosen
 * (the test restarts on it) or the user leaves the section. Nothing is played back.
 */
export function MicrophoneTest({ microphoneId, onOpened }: MicrophoneTestProps) {
  const id = useId();
  const [state, setState] = useState<TestState>({ status: 'idle' });
  const [level, setLevel] = useState(0);
  const [heard, setHeard] = useState(false);
  const stopRef = useRef<(() => void) | null>(null);
  const attempt = useRef(0);
  const running = useRef(false);

  const stop = () => {
    running.current = false;
    attempt.current += 1;
    stopRef.current?.();
    stopRef.current = null;
    setLevel(0);
    setState({ status: 'idle' });
  };

  const start = (deviceId: string | null) => {
    stopRef.current?.();
    stopRef.current = null;
    running.current = true;
    const mine = ++attempt.current;
    setHeard(false);
    setLevel(0);
    setState({ status: 'starting' });
    openMicrophoneLevel(deviceId, (next) => {
      setLevel(next);
      if (next >= HEARD_LEVEL) setHeard(true);
    }).then(
      (close) => {
        if (mine !== attempt.current) return close(); // stopped or restarted meanwhile
        stopRef.current = close;
        setState({ status: 'running' });
        onOpened?.();
      },
      (error: unknown) => {
        if (mine !== attempt.current) return;
        running.current = false;
        setState({ status: 'failed', message: microphoneErrorMessage(error) });
      },
    );
  };

  // Another microphone chosen while testing: test that one instead.
  const restartOnChange = useRef(start);
  useEffect(() => {
    restartOnChange.current = start;
  });
  useEffect(() => {
    let tested = audioDeviceChoice().microphoneId;
    return subscribeAudioDevices(() => {
      const chosen = audioDeviceChoice().microphoneId;
      if (chosen === tested) return;
      tested = chosen;
      if (running.current) restartOnChange.current(chosen);
    });
  }, []);

  // Leaving the section (or Settings) closes the microphone.
  useEffect(
    () => () => {
      attempt.current += 1;
      stopRef.current?.();
    },
    [],
  );

  const percent = Math.round(level * 100);
  const testing = state.status === 'running' || state.status === 'starting';
  return (
    <div className="grid gap-3 rounded-xl border p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-0.5">
          <h4 className="font-medium">Microphone test</h4>
          <p id={`${id}-help`} className="text-sm text-muted-foreground">
            Speak and watch the bar move. Nobody else hears the test.
          </p>
        </div>
        {testing ? (
          <Button variant="outline" onClick={stop} disabled={state.status === 'starting'}>
            {state.status === 'starting' ? <BusyIcon /> : <Square aria-hidden="true" />}
            Stop test
          </Button>
        ) : (
          <Button variant="outline" onClick={() => start(microphoneId)} aria-describedby={`${id}-help`}>
            <Mic aria-hidden="true" />
            Test microphone
          </Button>
        )}
      </div>
      <div
        role="meter"
        aria-label="Microphone level"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-3 overflow-hidden rounded-full bg-muted"
      >
        <div
          className={cn('h-full rounded-full bg-primary', !testing && 'opacity-40')}
          style={{ width: `${percent}%` }}
        />
      </div>
      <p role="status" className="min-h-5 text-sm text-muted-foreground">
        {state.status === 'failed' ? (
          <span className="text-destructive-text">{state.message}</span>
        ) : state.status === 'running' ? (
          heard ? (
            'Chirp hears this microphone.'
          ) : (
            'Listening… say something.'
          )
        ) : null}
      </p>
    </div>
  );
}
