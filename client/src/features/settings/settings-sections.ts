/**
 * Settings is grouped into sections (issue 29): what is about you, your voice and devices, your
 * notifications, the channels you are in or run, and — for whoever may run it — the server.
 * The section shows in the address (`/settings?section=voice`), so a link or reload keeps it.
 */
export const SETTINGS_SECTIONS = ['you', 'voice', 'notifications', 'channels', 'server'] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

export const SECTION_TITLES: Record<SettingsSection, string> = {
  you: 'You',
  voice: 'Voice and devices',
  notifications: 'Notifications',
  channels: 'Channels',
  server: 'Server',
};

export const SECTION_DESCRIPTIONS: Record<SettingsSection, string> = {
  you: 'Your plan, your name, your account and who may reach you.',
  voice: 'Which microphone and speaker Chirp uses, and how you talk.',
  notifications: 'What reaches you when Chirp is closed.',
  channels: 'Create channels and look after their members.',
  server: 'Settings for this whole server.',
};

export const DEFAULT_SECTION: SettingsSection = 'you';

/** The section the address asks for, if it is one this user may open; else the first section. */
export function sectionFromSearch(search: string, allowed: readonly SettingsSection[]): SettingsSection {
  const wanted = new URLSearchParams(search).get('section');
  const found = allowed.find((section) => section === wanted);
  return found ?? DEFAULT_SECTION;
}
