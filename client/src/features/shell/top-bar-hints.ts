/**
 * What each top-bar button's tooltip adds to its label (hover or keyboard focus). The labels are
 * the spec's and stay on the buttons; these say where each one leads.
 */
export const TOP_BAR_HINTS: Readonly<Record<string, string>> = {
  Contacts: 'Call or talk with people on this server',
  Channels: 'Switch to another channel',
  Share: 'Share an invite link to this channel',
  Settings: 'Your account, devices and server settings',
  Logout: 'Sign out of Chirp on this device',
};
