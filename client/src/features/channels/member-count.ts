/** "1 member", "3 members": the channel's size as the menu and the bottom bar say it. */
export function memberCountText(count: number): string {
  return `${count} ${count === 1 ? 'member' : 'members'}`;
}
