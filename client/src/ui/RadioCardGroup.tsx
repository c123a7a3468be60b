import { useId } from 'react';

export type RadioCardOption<T extends string> = { value: T; label: string; help: string };

export type RadioCardGroupProps<T extends string> = {
  /** Read by screen readers as the group's name; not shown. */
  legend: string;
  options: readonly RadioCardOption<T>[];
  value: T;
  onChange: (value: T) => void;
};

/**
 * One choice out of a few, each a bordered card with its label and a line of help: native radio
 * buttons in a fieldset, so arrow keys move between them and the legend names the group.
 */
export function RadioCardGroup<T extends string>({
  legend,
  options,
  value,
  onChange,
}: RadioCardGroupProps<T>) {
  const name = useId();
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="sr-only">{legend}</legend>
      {options.map((option) => (
        <label
          key={option.value}
          className="flex cursor-pointer items-start gap-3 rounded-lg border border-border p-3 has-[:checked]:border-primary has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring"
        >
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
            className="mt-1 accent-[var(--primary)]"
          />
          <span>
            <span className="block font-medium">{option.label}</span>
            <span className="block text-sm text-muted-foreground">{option.help}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
