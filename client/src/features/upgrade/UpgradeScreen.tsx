import { PageLayout } from '../shell/PageLayout';

/** Placeholder for the plan upgrade screen of spec §2; the installable-app issue fills it. */
export function UpgradeScreen() {
  return <PageLayout title="Upgrade" />;
}
