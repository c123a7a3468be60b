import { AlertTriangle, Info } from 'lucide-react';
import { cn } from '../../lib/cn';
import { Button } from '../../ui/Button';
import { useAuth } from '../auth/useAuth';
import { useBilling } from '../server-config/useServerConfig';
import { usageAlert, type UsageAlertTone } from './usage-alert';
import { useAutoPayAsYouGo } from './useAutoPayAsYouGo';
import { payAsYouGoToasts } from './pay-as-you-go-toasts';
import { useSetPayAsYouGo } from './usePayAsYouGo';
import { useUsage } from './useUsage';

const iconClasses: Record<UsageAlertTone, string> = {
  notice: 'text-primary',
  warning: 'text-warning',
  danger: 'text-destructive',
};

const toneClasses: Record<UsageAlertTone, string> = {
  notice: 'border-primary/30 bg-primary/5 text-foreground',
  warning: 'border-warning/40 bg-warning/10 text-foreground',
  danger: 'border-destructive/40 bg-destructive/10 text-foreground',
};

/**
 * Spec §2: the usage alert banner on top of the main screen, by warning level. Also runs the
 * one-time automatic pay-as-you-go of spec §4, so mount it once. A server without billing
 * (BILLING=off) has no limits to warn about: no banner, no pay-as-you-go.
 */
export function UsageAlertBanner() {
  const { user } = useAuth();
  const billing = useBilling();
  const { data: usage } = useUsage(user !== null && billing);
  useAutoPayAsYouGo(usage, user?.id ?? null);
  const payAsYouGo = useSetPayAsYouGo();
  const alert = usage ? usageAlert(usage) : null;
  if (!alert) return null;
  const Icon = alert.tone === 'notice' ? Info : AlertTriangle;

  const set = (enabled: boolean) => payAsYouGo.mutate(enabled, payAsYouGoToasts(enabled));

  return (
    <section
      aria-label="Usage"
      role={alert.tone === 'danger' ? 'alert' : 'status'}
      className={cn(
        'flex flex-col gap-3 rounded-xl border px-4 py-3 sm:flex-row sm:items-center',
        toneClasses[alert.tone],
      )}
    >
      <Icon
        aria-hidden="true"
        className={cn('hidden size-5 shrink-0 sm:block', iconClasses[alert.tone])}
      />
      <div className="flex-1 text-sm">
        <p className="font-semibold">{alert.title}</p>
        <p className="text-muted-foreground">{alert.description}</p>
      </div>
      {alert.offerPayAsYouGo ? (
        <Button size="sm" onClick={() => set(true)} disabled={payAsYouGo.isPending}>
          Enable Pay-as-you-go
        </Button>
      ) : null}
      {alert.offerTurnOff ? (
        <Button
          size="sm"
          variant="outline"
          onClick={() => set(false)}
          disabled={payAsYouGo.isPending}
        >
          Disable Pay-as-you-go
        </Button>
      ) : null}
    </section>
  );
}
