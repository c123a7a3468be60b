import { useAuth } from '../auth/useAuth';
import { useServerConfigQuery } from '../server-config/useServerConfig';
import { LoadingScreen } from '../shell/LoadingScreen';
import { PageLayout } from '../shell/PageLayout';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { toast } from '../../ui/toast-store';
import { cn } from '../../lib/cn';
import { FaqList } from './FaqList';
import { FeatureList, PlanCard, YourPlanBadge } from './PlanCard';
import { FREE_PLAN, PLANS, planStatus } from './plans';

/**
 * What every account has, so the paid plans only sell what they add; marked as the user's plan
 * when it is (decision 046).
 */
function FreePlanCard({ current }: { current: boolean }) {
  return (
    <Card aria-labelledby="plan-free" className={cn(current && 'border-primary ring-2 ring-primary/40')}>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle id="plan-free">{FREE_PLAN.name}</CardTitle>
          {current ? <YourPlanBadge /> : null}
        </div>
        <CardDescription>Every account, at no cost.</CardDescription>
      </CardHeader>
      <CardContent>
        <div className="grid gap-2 sm:grid-cols-2">
          <FeatureList features={FREE_PLAN.features.slice(0, 2)} />
          <FeatureList features={FREE_PLAN.features.slice(2)} />
        </div>
      </CardContent>
    </Card>
  );
}

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
  const tier = user?.subscriptionTier;
  return (
    <PageLayout title="Upgrade">
      <p className="-mt-3 text-muted-foreground">Talk more, run your own channels. Every plan starts with a free trial.</p>
      {tier === 'superadmin' ? (
        <p className="rounded-xl bg-primary-soft/50 p-4 text-sm">
          You own this server as its Super Admin: everything below is already yours.
        </p>
      ) : null}
      <FreePlanCard current={tier === 'free'} />
      <div className="grid gap-4 sm:grid-cols-2">
        {PLANS.map((plan) => (
          <PlanCard key={plan.tier} plan={plan} status={planStatus(plan.tier, tier)} onChoose={choose} />
        ))}
      </div>
      <FaqList />
    </PageLayout>
  );
}
