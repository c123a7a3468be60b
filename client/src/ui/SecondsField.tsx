import { useId, type ReactNode } from 'react';
import { Input } from './Input';
import { Label } from './Label';

export type SecondsFieldProps = {
  label: string;
  /** The seconds allowed; the browser's own number input keeps to them. */
  range: { min: number; max: number };
  /** As typed: checked against the protocol's schema when the form is sent. */
  value: string;
  onChange: (value: string) => void;
  /** A line under the field (also the input's description). */
  help: ReactNode;
  /** The last send's complaint, announced as an alert; the input is marked invalid meanwhile. */
  error: string | null;
  /** Beside the input, e.g. the field's own Save button. */
  action?: ReactNode;
  inputClassName?: string;
};

/**
 * A number of seconds within a range: its label, the input, a line of help, and the error as an
 * alert. Lays itself out in the parent's grid (the talk-mode dialog's maximum transmission, an SOS
 * channel's talk time).
 */
export function SecondsField({
  label,
  range,
  value,
  onChange,
  help,
  error,
  action,
  inputClassName,
}: SecondsFieldProps) {
  const id = useId();
  const input = (
    <Input
      id={id}
      type="number"
      inputMode="numeric"
      min={range.min}
      max={range.max}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      aria-invalid={error ? true : undefined}
      aria-describedby={`${id}-help`}
      className={inputClassName}
    />
  );
  return (
    <>
      <Label htmlFor={id}>{label}</Label>
      {action ? (
        <div className="flex gap-2">
          {input}
          {action}
        </div>
      ) : (
        input
      )}
      <p id={`${id}-help`} className="text-xs text-muted-foreground">
        {help}
      </p>
      {error ? (
        <p role="alert" className="text-sm text-destructive-text">
          {error}
        </p>
      ) : null}
    </>
  );
}
