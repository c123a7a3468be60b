import { Crown, Sparkles } from 'lucide-react';
import { useLocation } from 'wouter';
import { isAdminTier, type SubscriptionTier } from '../../../../protocol/user';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { useBilling } from '../server-config/useServerConfig';
import { TIER_TITLES } from './tier-title';
import { PRICE_SUMMARY } from '../upgrade/plans';

const DESCRIPTIONS: Record<SubscriptionTier, string> = {
  superadmin: 'You own this server: every channel, every user and every tier.',
  admin: 'Create channels, add, remove and mute members.',
  member: 'Join any channel yourself, with a longer idle timeout.',
  free: 'Join channels you are invited to.',
};

/**
 * Spec §2: the user's tier, with an upgrade button for non-admins (to /upgrade) — on servers that
 * sell plans; a BILLING=off server has nothing to upgrade to.
 */
export function TierCard({ tier }: { tier: SubscriptionTier }) {
  const [, navigate] = useLocation();
  const billing = useBilling();
  const offersUpgrade = billing && !isAdminTier(tier);
  return (
    <Card className="overflow-hidden">
      <CardHeader className="flex-row items-start gap-4 bg-primary-soft/50">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-primary text-primary-foreground">
          <Crown aria-hidden="true" className="size-5" />
        </span>
        <div className="grid min-w-0 flex-1 gap-1">
          <CardTitle>{TIER_TITLES[tier]}</CardTitle>
          <CardDescription>{DESCRIPTIONS[tier]}</CardDescription>
        </div>
      </CardHeader>
      {!offersUpgrade ? null : (
        <CardContent className="flex flex-col gap-3 pt-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-muted-foreground">
            {PRICE_SUMMARY}
          </p>
          <Button onClick={() => navigate('/upgrade')}>
            <Sparkles aria-hidden="true" />
            Upgrade
          </Button>
        </CardContent>
      )}
    </Card>
  );
}
