import { Gauge } from 'lucide-react';
import { FREE_MONTHLY_MINUTES, OVERAGE_PRICE_PER_MINUTE } from '../../../../protocol/usage';
import { Button } from '../../ui/Button';
import { BusyIcon } from '../../ui/BusyIcon';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { Spinner } from '../../ui/Spinner';
import { payAsYouGoToasts } from './pay-as-you-go-toasts';
import { useSetPayAsYouGo } from './usePayAsYouGo';
import { useUsage } from './useUsage';

const minutes = (n: number) => Math.round(n).toLocaleString('en-US');

/** Settings: this month's minutes, and pay-as-you-go turned on or off at any time (spec §7). */
export function PayAsYouGoCard() {
  const { data: usage, isLoading, isError } = useUsage();
  const payAsYouGo = useSetPayAsYouGo();
  const enabled = usage?.payAsYouGoEnabled ?? false;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Usage</CardTitle>
        <CardDescription>
          {FREE_MONTHLY_MINUTES.toLocaleString('en-US')} free minutes a month; pay-as-you-go costs $
          {OVERAGE_PRICE_PER_MINUTE} a minute beyond them.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center justify-between gap-3">
        {isLoading ? (
          <Spinner label="Loading usage" />
        ) : isError || !usage ? (
          <p className="text-sm text-destructive-text">Could not load usage.</p>
        ) : (
          <>
            <p className="flex items-center gap-2 text-sm">
              <Gauge aria-hidden="true" className="size-4 text-muted-foreground" />
              <span>
                {minutes(usage.totalMonthlyMinutes)} minutes used this month · Pay-as-you-go is{' '}
                <strong>{enabled ? 'on' : 'off'}</strong>
              </span>
            </p>
            <Button
              size="sm"
              variant={enabled ? 'outline' : 'default'}
              disabled={payAsYouGo.isPending}
              onClick={() => payAsYouGo.mutate(!enabled, payAsYouGoToasts(!enabled))}
            >
              {payAsYouGo.isPending ? <BusyIcon /> : null}
              {enabled ? 'Disable Pay-as-you-go' : 'Enable Pay-as-you-go'}
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  );
}
