import type { ComponentProps } from 'react';
import { Slider as SliderPrimitive } from 'radix-ui';
import { cn } from '../lib/cn';

export type SliderProps = Omit<ComponentProps<typeof SliderPrimitive.Root>, 'aria-label'> & {
  /** The thumb is what assistive technology focuses, so it carries the name. */
  'aria-label': string;
  /** How the value is read out, e.g. "150%". */
  valueText?: string;
};

/** A single-thumb slider (arrow keys, Page Up/Down, Home/End) on Radix's primitive. */
export function Slider({ className, 'aria-label': label, valueText, ...props }: SliderProps) {
  return (
    <SliderPrimitive.Root
      className={cn(
        'relative flex h-6 w-full touch-none items-center select-none data-[disabled]:opacity-50',
        className,
      )}
      {...props}
    >
      <SliderPrimitive.Track className="relative h-1.5 grow overflow-hidden rounded-full bg-input">
        <SliderPrimitive.Range className="absolute h-full rounded-full bg-primary" />
      </SliderPrimitive.Track>
      <SliderPrimitive.Thumb
        aria-label={label}
        aria-valuetext={valueText}
        className="block size-5 cursor-grab rounded-full border-2 border-primary bg-background shadow-sm transition-transform focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring active:cursor-grabbing motion-safe:hover:scale-110"
      />
    </SliderPrimitive.Root>
  );
}
