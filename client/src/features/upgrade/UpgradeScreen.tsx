import { useAuth } from '../auth/useAuth';
import { useServerConfigQuery } from '../server-config/useServerConfig';
import { LoadingScreen } from '../shell/LoadingScreen';
import { PageLayout } from '../shell/PageLayout';
import { toast } from '../../ui/toast-store';
import { FaqList } from './FaqList';
import { PlanCard } from './PlanCard';
import { PLANS } from './plans';

/** Spec §2 "Upgrade screen": two plans and a short FAQ. Payments are not configured (spec §8). */
export function UpgradeScreen() {
  const { user } = useAuth();
  const { data: config, isPending } = useServerConfigQuery();
  const choose = () =>
    toast({
      title: 'Stripe Integration Required',
      description: 'Payments are not set up on this server yet. Ask your administrator to upgrade your account.',
    });
  if (isPending) return <LoadingScreen />;
  if (config?.billing === false) {
    return (
      <PageLayout title="Upgrade">
        <p className="text-muted-foreground">
          This server has no paid plans: there is nothing to buy and no minutes are counted against you. The
          owner of this server decides who is a member or an admin.
        </p>
      </PageLayout>
    );
  }
  return (
    <PageLayout title="Upgrade">
      <p className="-mt-3 text-muted-foreground">Talk more, run your own channels. Every plan starts with a free trial.</p>
      <div className="grid gap-4 sm:grid-cols-2">
        {PLANS.map((plan) => (
          <PlanCard key={plan.tier} plan={plan} current={user?.subscriptionTier === plan.tier} onChoose={choose} />
        ))}
      </div>
      <FaqList />
    </PageLayout>
  );
}
