import { PageLayout } from '../shell/PageLayout';

/** Placeholder for the settings screen of spec §2; the channels issue fills it. */
export function SettingsScreen() {
  return <PageLayout title="Settings" />;
}
