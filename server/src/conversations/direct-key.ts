/** The pair's key: both user ids sorted and joined by a space, the same whoever starts. */
export function directKeyOf(a: string, b: string): string {
  return [a, b].sort().join(' ');
}
