import { twMerge } from 'tailwind-merge';

export type ClassValue = string | false | null | undefined | 0;

/**
 * Joins the truthy class names and lets a later Tailwind class win over an earlier one that sets
 * the same property (`cn('px-2', 'px-4')` is `px-4`), so a caller's classes override a component's.
 * tailwind-merge keeps the 500 most recent results in its cache by default, the specification's size.
 */
export function cn(...classes: ClassValue[]): string {
  return twMerge(classes.filter(Boolean).join(' '));
}
