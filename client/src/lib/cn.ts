export type ClassValue = string | false | null | undefined | 0;

/**
 * Joins the truthy class names. Unlike tailwind-merge it does not resolve conflicts, so components
 * put caller classes last and avoid setting the same property twice.
 */
export function cn(...classes: ClassValue[]): string {
  return classes.filter(Boolean).join(' ');
}
